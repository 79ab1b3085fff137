// Finds the PostgreSQL server binaries (`initdb`, `pg_ctl`, `postgres`) for the team index tests, like
// `find-chromium.mjs`: `PG_BIN`, else Debian's `/usr/lib/postgresql/<version>/bin` (newest first). As root on Debian
// it installs the distribution's `postgresql` package; otherwise it names the one command to run.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const DEBIAN_ROOT = '/usr/lib/postgresql';
const NEEDED = ['initdb', 'pg_ctl', 'postgres'];

const complete = (bin) => NEEDED.every((name) => existsSync(join(bin, name)));

function debianBin() {
  if (!existsSync(DEBIAN_ROOT)) return null;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((left, right) => Number(right) - Number(left));
  return versions.map((version) => join(DEBIAN_ROOT, version, 'bin')).find(complete) ?? null;
}

export function findPostgres({ installIfRoot = false } = {}) {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && complete(fromEnv)) return { bin: fromEnv };
  const found = debianBin();
  if (found) return { bin: found };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (installIfRoot && isRoot && existsSync('/usr/bin/apt-get')) {
    console.log("PostgreSQL not found: installing Debian's postgresql package (apt-get install -y postgresql)…");
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'postgresql'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = debianBin();
    if (installed) return { bin: installed };
  }
  return {
    bin: null,
    message: 'The team index tests need PostgreSQL. Run: sudo apt-get install -y postgresql   (or set PG_BIN)',
  };
}
