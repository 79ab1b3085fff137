import { isAbsolute, relative, resolve } from 'node:path';

/**
 * The first of `paths` that resolves (against `folder`) to somewhere outside `folder`, or null when all stay
 * inside. Purely lexical, like the guard inside the runtime: `..` and absolute paths are what a tool call can
 * name; symlinks inside the folder are the folder's own business.
 */
export function pathLeavingFolder(folder: string, paths: readonly string[]): string | null {
  const root = resolve(folder);
  for (const path of paths) {
    const target = resolve(root, expandHome(path));
    const fromRoot = relative(root, target);
    if (fromRoot === '') continue;
    if (fromRoot.startsWith('..') || isAbsolute(fromRoot)) return target;
  }
  return null;
}

function expandHome(path: string): string {
  const home = process.env.HOME;
  if (home && (path === '~' || path.startsWith('~/'))) return home + path.slice(1);
  return path;
}
