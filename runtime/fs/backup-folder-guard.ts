import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { WeftError } from '../../protocol/index.ts';

/** A folder no backup may land in: a session root (never written, docs/spec.md §10) or Weft's own canvas records. */
export interface ProtectedFolder {
  path: string;
  kind: 'session-root' | 'canvas-records';
}

const MAX_LINK_HOPS = 40;

/**
 * The real path `path` names, even when its tail does not exist yet: symlinks are followed as far as
 * anything exists (a dangling link is followed through its target), and the missing rest is appended.
 * So a folder that will be created by `mkdir -p` is judged by where it will really be.
 */
export async function realPathOf(path: string): Promise<string> {
  let current = resolve(path);
  const missing: string[] = [];
  for (let hops = 0; hops <= MAX_LINK_HOPS;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const link = await lstat(current).catch(() => null);
    if (link?.isSymbolicLink()) {
      // A dangling link: what gets created is its target.
      current = resolve(dirname(current), await readlink(current));
      hops += 1;
      continue;
    }
    const parent = dirname(current);
    if (parent === current) return join(current, ...missing.reverse());
    missing.push(basename(current));
    current = parent;
  }
  throw new WeftError('backup-folder-refused', `Too many symbolic links in ${path}.`, 400);
}

const isInside = (target: string, root: string) =>
  target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * The real folder a backup may be written to, or a coded refusal: `invalid-body` for a relative path,
 * `backup-folder-refused` when its real path (symlinks resolved, also in the protected folders) is inside
 * a session root or Weft's canvas records. Called when the folder is configured and again at every write,
 * since a folder can later be swapped for a symlink.
 */
export async function resolveBackupFolder(
  folder: string,
  protectedFolders: readonly ProtectedFolder[],
): Promise<string> {
  if (!isAbsolute(folder) && !/^[A-Za-z]:[\\/]/.test(folder))
    throw new WeftError('invalid-body', 'The backup folder must be an absolute path.', 400);
  const target = await realPathOf(folder);
  for (const guarded of protectedFolders) {
    const lexical = resolve(guarded.path);
    const real = await realPathOf(lexical);
    if (!isInside(target, real) && !isInside(resolve(folder), lexical)) continue;
    const via = target === resolve(folder) ? '' : ` (it leads to ${target})`;
    throw new WeftError(
      'backup-folder-refused',
      guarded.kind === 'session-root'
        ? `The backup folder ${folder}${via} is inside the session root ${guarded.path}, which Weft never writes to.`
        : `The backup folder ${folder}${via} is inside Weft's own canvas records folder.`,
      400,
    );
  }
  return target;
}
