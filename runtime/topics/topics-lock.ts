import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDirectory } from '../fs/index.ts';
import { WeftError } from '../../protocol/index.ts';

/** How long a topic write waits for another process's before it is refused (never goes ahead unlocked). */
export const TOPICS_BUSY_MS = 10_000;

/**
 * Runs `write` (synchronous: it must finish while the lock is held) under the topic table's lock, shared by every
 * process on this machine: an IMMEDIATE transaction on `memory/topics.lock`, a small SQLite file that holds no
 * data. SQLite's lock is the OS's file lock, released if the holder dies. Waits up to `busyMs`, then refuses with
 * `topics-busy` (503), nothing written.
 */
export function withTopicsLock<T>(directory: string, write: () => T, busyMs = TOPICS_BUSY_MS): T {
  ensurePrivateDirectory(directory);
  const path = join(directory, 'topics.lock');
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  const database = new Database(path, { timeout: busyMs });
  try {
    try {
      database.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY'))
        throw new WeftError(
          'topics-busy',
          'Another Weft process is writing the topics; nothing was written. Try again in a moment.',
          503,
        );
      throw error;
    }
    try {
      const result = write();
      database.exec('COMMIT');
      return result;
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
  } finally {
    database.close();
  }
}
