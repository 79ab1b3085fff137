import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, rm, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { realPathOf } from '../fs/index.ts';
import { IndexError } from './index-error.ts';
import { hashing, type ArchiveEntry } from './session-archive.ts';

/** One file written by `exportArchivedCopy`. */
export interface ExportedCopy {
  /** The session file's path as the index knows it. */
  source: string;
  /** Where its bytes were written. */
  path: string;
  bytes: number;
  sha256: string;
  /** Whether the bytes were checked against a hash the entry recorded (false for copies of older Weft). */
  verified: boolean;
}

const isInside = (target: string, root: string) =>
  target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * The real folder an export may write to, or `export-folder-refused`: inside a session root (Weft never writes
 * there) or inside `$WEFT_HOME`. Real paths on both sides (symlinks followed, a missing tail appended), and the
 * names as given too, as the backup folder guard does.
 */
export async function resolveExportFolder(
  folder: string,
  guarded: { sessionRoots: readonly string[]; weftHome: string },
): Promise<string> {
  const target = await realPathOf(folder);
  const folders = [
    ...guarded.sessionRoots.map((path) => ({ path, what: 'the session root' })),
    { path: guarded.weftHome, what: "Weft's own folder (WEFT_HOME)" },
  ];
  for (const { path, what } of folders) {
    const lexical = resolve(path);
    if (!isInside(target, await realPathOf(lexical)) && !isInside(resolve(folder), lexical)) continue;
    const via = target === resolve(folder) ? '' : ` (it leads to ${target})`;
    throw new IndexError('export-folder-refused', `the folder ${folder}${via} is inside ${what} ${path}`);
  }
  return target;
}

/**
 * Writes the original bytes a copy holds into `folder` (already resolved by `resolveExportFolder`) under the
 * session file's own name. They are unpacked to a temporary file there and checked (length, and the SHA-256 when
 * the entry has one) before the file takes its name through a hard link, which fails rather than replace a file
 * already there (`export-file-exists`); a copy that does not check out is `archive-copy-bad` and leaves nothing.
 */
export async function exportArchivedCopy(entry: ArchiveEntry, copyPath: string, folder: string): Promise<ExportedCopy> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, basename(entry.path));
  if (await stat(path).catch(() => null))
    throw new IndexError('export-file-exists', `${path} exists; Weft does not overwrite it`);
  const temporary = join(folder, `.${basename(entry.path)}.${process.pid}.weft-export`);
  const hash = createHash('sha256');
  const counter = hashing(hash);
  try {
    await pipeline(
      createReadStream(copyPath, { start: 0, end: Math.max(0, entry.compressedBytes - 1) }),
      createGunzip(),
      counter,
      createWriteStream(temporary, { flags: 'wx', mode: 0o600 }),
    );
    const sha256 = hash.digest('hex');
    if (counter.bytes !== entry.bytes || (entry.sha256 !== undefined && sha256 !== entry.sha256))
      throw new IndexError(
        'archive-copy-bad',
        `the archived copy of ${entry.path} does not match its entry (run: weft archive verify)`,
      );
    await link(temporary, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST')
        throw new IndexError('export-file-exists', `${path} exists; Weft does not overwrite it`);
      throw error;
    });
    return { source: entry.path, path, bytes: counter.bytes, sha256, verified: entry.sha256 !== undefined };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'Z_DATA_ERROR' || (error as { code?: string }).code === 'Z_BUF_ERROR')
      throw new IndexError('archive-copy-bad', `the archived copy of ${entry.path} does not unpack`, { cause: error });
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}
