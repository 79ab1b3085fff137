import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * `writeFileAtomic` for a write that must finish inside a lock held by this thread (an open SQLite transaction):
 * temp file in the same directory ('wx': never follows a planted file), fsync, rename over the target, fsync the
 * directory. A reader sees the old file or the new one, never a mix.
 */
export function writeFileAtomicSync(target: string, data: string, mode = 0o600): void {
  const directory = dirname(target);
  const temp = join(directory, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let renamed = false;
  try {
    const handle = openSync(temp, 'wx', mode);
    try {
      writeSync(handle, data);
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    renameSync(temp, target);
    renamed = true;
    syncDirectory(directory);
  } catch (error) {
    if (!renamed)
      try {
        unlinkSync(temp);
      } catch {
        /* the temp was never made */
      }
    throw error;
  }
}

function syncDirectory(directory: string): void {
  // Makes the rename durable; some platforms (Windows) refuse a directory fsync, which is harmless.
  let handle: number | undefined;
  try {
    handle = openSync(directory, 'r');
    fsyncSync(handle);
  } catch {
    /* not supported here */
  } finally {
    if (handle !== undefined) closeSync(handle);
  }
}
