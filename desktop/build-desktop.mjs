// Bundles the Electron main process and preload into dist/desktop/ (Electron cannot load .ts files).
// Dependencies stay external and resolve from node_modules at run time.
import { build } from 'esbuild';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;

/** One Node bundle into dist/desktop/ (shared settings; `options` adds what differs). */
const bundle = (entry, outfile, options) =>
  build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, 'dist/desktop', outfile),
    bundle: true,
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    ...options,
  });

await bundle('desktop/main.ts', 'main.mjs', {
  format: 'esm',
  packages: 'external',
  define: {
    'process.env.WEFT_VERSION': JSON.stringify(version),
    'process.env.WEFT_BUNDLED_SESSION_WORKER': JSON.stringify('./session-read-worker.mjs'),
  },
});
await bundle('desktop/preload.ts', 'preload.cjs', { format: 'cjs', external: ['electron'] });
// The index's session readers run in workers loaded by URL next to the bundle (runtime/index/session-read-pool.ts).
await bundle('runtime/index/session-read-worker.ts', 'session-read-worker.mjs', {
  format: 'esm',
  packages: 'external',
});
// The PDF worker is loaded by URL next to the bundle (runtime/materials/pdf-text.ts).
copyFileSync(
  path.join(root, 'runtime/materials/pdf-text-worker.mjs'),
  path.join(root, 'dist/desktop/pdf-text-worker.mjs'),
);
// Pi loads Weft's guard by path, next to the bundle (runtime/agents/pi-rpc-runtime.ts PI_GUARD_EXTENSION).
copyFileSync(
  path.join(root, 'runtime/agents/pi-guard-extension.mjs'),
  path.join(root, 'dist/desktop/pi-guard-extension.mjs'),
);
console.log('weft desktop: bundled dist/desktop/main.mjs and dist/desktop/preload.cjs');
