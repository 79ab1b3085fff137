import { chmodSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

/** `WEFT_HOME` (default `~/.weft`): the only place the why layer writes. */
export function resolveWeftHome(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const configured = env.WEFT_HOME?.trim();
  return configured ? resolve(configured) : join(home, '.weft');
}

/** Creates the directory 0700 (and tightens it if it already existed looser). */
export function ensurePrivateDirectory(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const mode = statSync(path).mode & 0o777;
  if (mode !== 0o700) chmodSync(path, 0o700);
  return path;
}

export function indexDatabasePath(weftHome: string): string {
  return join(weftHome, 'index.db');
}

export function canvasesDirectory(weftHome: string): string {
  return join(weftHome, 'canvases');
}

/** The real path of `path`, through its nearest existing ancestor (so a folder not created yet still resolves). */
export function realPathOfNearest(path: string): string {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(basename(current));
      current = parent;
    }
  }
}
