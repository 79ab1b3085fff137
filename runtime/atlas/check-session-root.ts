import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { WeftError } from '../../protocol/index.ts';
// Not the record store's surface: session-read workers import the Atlas, and its schemas would ride along.
import { realPathOfNearest } from '../fs/home/index.ts';

export interface SessionRootGuard {
  /** The person's home folder, for `~/…`. */
  home: string;
  /** `$WEFT_HOME`: Weft writes there (index, archive, canvases), so no session root may overlap it. */
  weftHome: string;
  /** The app's own folders (its code and built UI): never a place for someone's sessions. */
  appFolders: readonly string[];
  /** The roots already chosen, to refuse the same folder twice. */
  roots: readonly string[];
}

const within = (target: string, folder: string) =>
  target === folder || target.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);

/**
 * A folder the person offers as a session root, judged by its real path (symlinks resolved) before it is kept:
 * it must exist, be a folder Weft can list, and lie apart from Weft's own home and the app's folders (a root there
 * would be read by the index that writes there, and a root is never written: C18). Returns the real path, or a
 * coded refusal: `session-root-not-absolute`, `session-root-bad-name`, `session-root-not-found`, `session-root-not-a-folder`,
 * `session-root-unreadable`, `session-root-in-weft-home`, `session-root-in-app`, `session-root-duplicate`.
 * Nothing is created or written here: the checks are stat, realpath and an access probe.
 */
export async function checkSessionRoot(candidate: string, guard: SessionRootGuard): Promise<string> {
  const typed = candidate.trim();
  const expanded = typed === '~' ? guard.home : typed.startsWith('~/') ? path.join(guard.home, typed.slice(2)) : typed;
  if (!path.isAbsolute(expanded))
    throw new WeftError('session-root-not-absolute', `A session root must be an absolute path (got ${typed}).`, 400);
  // The roots travel to the why index as one `path.delimiter`-separated list.
  if (expanded.includes(path.delimiter))
    throw new WeftError('session-root-bad-name', `A session root's path may not contain "${path.delimiter}".`, 400);
  let real: string;
  try {
    real = await realpath(expanded);
  } catch {
    throw new WeftError('session-root-not-found', `There is no folder at ${expanded}.`, 400);
  }
  if (!(await stat(real)).isDirectory())
    throw new WeftError('session-root-not-a-folder', `${expanded} is a file, not a folder.`, 400);
  try {
    await access(real, constants.R_OK | constants.X_OK);
  } catch {
    throw new WeftError('session-root-unreadable', `Weft may not list the folder ${expanded}.`, 400);
  }
  const via = real === path.resolve(expanded) ? '' : ` (it leads to ${real})`;
  const weftHome = realPathOfNearest(path.resolve(guard.weftHome));
  if (within(real, weftHome) || within(weftHome, real))
    throw new WeftError(
      'session-root-in-weft-home',
      `${expanded}${via} overlaps Weft's own home ${guard.weftHome}, where Weft writes; a session root is never written.`,
      400,
    );
  for (const folder of guard.appFolders) {
    const app = realPathOfNearest(path.resolve(folder));
    if (within(real, app))
      throw new WeftError('session-root-in-app', `${expanded}${via} is inside Weft's own folder ${folder}.`, 400);
  }
  const same = guard.roots.find((root) => realPathOfNearest(path.resolve(root)) === real);
  if (same !== undefined)
    throw new WeftError('session-root-duplicate', `${expanded}${via} is already a session root (${same}).`, 409);
  return real;
}
