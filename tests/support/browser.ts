/**
 * What the browser tests and the browser benchmarks share: a renderer build no older than its sources, and
 * headless Chromium found the way `npm test` finds it (`find-chromium.mjs`: CHROMIUM_PATH, the system package,
 * or one line saying what to install).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from './find-chromium.mjs';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const distIndex = path.join(repoRoot, 'dist/ui/index.html');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function newestMtime(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the renderer the way `npm start` does, unless dist/ui is newer than every source. */
export function ensureBuilt(): void {
  const sources = Math.max(
    ...['src/ui', 'src/core', 'protocol'].map((folder) => newestMtime(path.join(repoRoot, folder))),
    statSync(path.join(repoRoot, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(distIndex) && statSync(distIndex).mtimeMs > sources) return;
  const build = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('vite build failed');
}

/** The system Chromium's path, or a thrown error whose message is the one command to run. */
export function chromiumPath(): string {
  const found = findChromium({ installIfRoot: true });
  if (!found.path) throw new Error(found.message);
  return found.path;
}

/** Headless Chromium with the flags every browser test uses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}
