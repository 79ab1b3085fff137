// Finds a system Chromium for the browser tests. Never downloads a browser of its own: as root on Debian it
// installs the distribution's `chromium` package; otherwise it names the one command to run.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium({ installIfRoot = false } = {}) {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return { path: fromEnv };
  const found = CANDIDATES.find((candidate) => existsSync(candidate));
  if (found) return { path: found };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (installIfRoot && isRoot && existsSync('/usr/bin/apt-get')) {
    console.log("Chromium not found: installing Debian's chromium package (apt-get install -y chromium)…");
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit' });
    if (existsSync('/usr/bin/chromium')) return { path: '/usr/bin/chromium' };
  }
  return {
    path: null,
    message: 'Browser tests need Chromium. Run: sudo apt-get install -y chromium   (or set CHROMIUM_PATH)',
  };
}
