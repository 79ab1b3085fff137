// `npm run desktop`: build the renderer and the shell, then run Electron — where its binary exists.
// On machines where the Electron binary could not be downloaded (no GitHub access), say so clearly.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

let electronBinary = null;
try {
  // The electron package exports the path of its binary, and throws when the binary is missing.
  electronBinary = require('electron');
} catch {
  electronBinary = null;
}
if (typeof electronBinary !== 'string') {
  console.error(
    'weft desktop: the Electron binary is not installed on this machine (its download from GitHub was skipped or failed),\n' +
      'so the desktop shell cannot run here. Use the web mode instead: `npm start` serves the same app in a browser.\n' +
      'To get Electron: `ELECTRON_SKIP_BINARY_DOWNLOAD= node node_modules/electron/install.js` on a machine with internet access.',
  );
  process.exit(1);
}

const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
if (run([path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']).status !== 0)
  process.exit(1);
if (run([path.join(root, 'desktop/build-desktop.mjs')]).status !== 0) process.exit(1);

const child = spawn(electronBinary, [path.join(root, 'dist/desktop/main.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
