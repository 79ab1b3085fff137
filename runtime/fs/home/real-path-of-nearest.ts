import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The real path of `path`, through its nearest existing ancestor (so a folder not created yet still resolves).
 * Synchronous, for the index's open-time checks; the backup guard's `realPathOf` also follows dangling links.
 */
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
