import { resolve, sep } from 'node:path';
import { realPathOfNearest } from '../fs/index.ts';

/**
 * Whether a session file lies under one of the roots read now (as given or by their real paths). A file of a root
 * no longer read (removed in Settings or from WEFT_SESSION_ROOTS) was not deleted by its agent, only no longer
 * wanted: the index neither keeps it as "source deleted" nor brings it back from the archive.
 */
export function withinRoots(roots: readonly string[]): (path: string) => boolean {
  const folders = [...new Set(roots.flatMap((root) => [resolve(root), realPathOfNearest(resolve(root))]))];
  return (path) => folders.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));
}
