#!/usr/bin/env node
// `npm start`: build the renderer (unless WEFT_SKIP_BUILD=1 and a build exists), then serve the app and the API
// on loopback with the embedded defaults (offline receipt model, default Atlas roots, demo canvas on first run).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = existsSync(path.join(root, 'dist/ui/index.html'));

if (!(process.env.WEFT_SKIP_BUILD === '1' && built)) {
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) {
    console.error('weft: the renderer build failed (see above); nothing was started.');
    process.exit(build.status ?? 1);
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
