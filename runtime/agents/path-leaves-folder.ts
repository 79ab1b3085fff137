import { resolve } from 'node:path';
import { pathOutsideFolder } from './pi-guard-extension.mjs';

/**
 * The first of `paths` that resolves (against `folder`) to somewhere outside `folder`, or null when all stay
 * inside. Outside by its text (`..`, an absolute path) or through a link inside the folder: the same test as the
 * guard inside Pi, which holds the one implementation because it must run alone there.
 */
export function pathLeavingFolder(folder: string, paths: readonly string[]): string | null {
  const root = resolve(folder);
  for (const path of paths) {
    const leaves = pathOutsideFolder(root, resolve(root, expandHome(path)));
    if (leaves !== null) return leaves;
  }
  return null;
}

function expandHome(path: string): string {
  const home = process.env.HOME;
  if (home && (path === '~' || path.startsWith('~/'))) return home + path.slice(1);
  return path;
}
