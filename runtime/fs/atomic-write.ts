import { randomBytes } from 'node:crypto';
import * as fsPromises from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The handful of file operations an atomic write needs; injectable so tests can fail at any step. */
export interface AtomicFileSystem {
  writeTemp(path: string, data: string | Uint8Array, mode: number): Promise<void>;
  fsyncFile(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  fsyncDirectory(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

export const nodeAtomicFileSystem: AtomicFileSystem = {
  async writeTemp(path, data, mode) {
    // 'wx' refuses to follow a planted file or symlink at the temp name.
    const handle = await fsPromises.open(path, 'wx', mode);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  },
  async fsyncFile(path) {
    const handle = await fsPromises.open(path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => fsPromises.rename(from, to),
  async fsyncDirectory(path) {
    // Directory fsync makes the rename durable; some platforms (Windows) refuse it, which is harmless.
    let handle: fsPromises.FileHandle | undefined;
    try {
      handle = await fsPromises.open(path, 'r');
      await handle.sync();
    } catch {
      /* not supported here */
    } finally {
      await handle?.close();
    }
  },
  unlink: (path) => fsPromises.unlink(path),
};

export interface AtomicWriteOptions {
  mode?: number;
  fileSystem?: AtomicFileSystem;
}

/**
 * Write `data` to `target` so a reader sees either the old file or the new one, never a mix:
 * temp file in the same directory, fsync, rename over the target, fsync the directory.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const fileSystem = options.fileSystem ?? nodeAtomicFileSystem;
  const mode = options.mode ?? 0o600;
  const directory = dirname(target);
  const temp = join(directory, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let renamed = false;
  try {
    await fileSystem.writeTemp(temp, data, mode);
    await fileSystem.fsyncFile(temp);
    await fileSystem.rename(temp, target);
    renamed = true;
    await fileSystem.fsyncDirectory(directory);
  } catch (error) {
    if (!renamed) await fileSystem.unlink(temp).catch(() => undefined);
    throw error;
  }
}
