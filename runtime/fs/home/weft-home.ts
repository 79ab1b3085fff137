import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Weft's one data directory: `WEFT_HOME` or `~/.weft`. The server, the desktop shell, the CLI and the why index
 * all resolve it here, so they always agree on where records, keys and the index live.
 */
export function resolveWeftHome(env: Record<string, string | undefined> = process.env, home = homedir()): string {
  const configured = env.WEFT_HOME?.trim();
  return configured ? resolve(configured) : join(home, '.weft');
}

/**
 * Creates a directory 0700, and tightens one that already exists looser. A failure to tighten is an error, never
 * ignored: keys and records must not sit in a folder others can read.
 */
export function ensurePrivateDirectory(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const mode = statSync(path).mode & 0o777;
  if (mode !== 0o700) chmodSync(path, 0o700);
  return path;
}

/** The data directory (0700) and its `canvases/` folder (0700). */
export function ensureWeftHome(home: string): void {
  ensurePrivateDirectory(home);
  ensurePrivateDirectory(canvasesDirectory(home));
}

export function canvasesDirectory(home: string): string {
  return join(home, 'canvases');
}

export function indexDatabasePath(home: string): string {
  return join(home, 'index.db');
}
