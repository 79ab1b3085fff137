import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { WeftError } from '../../protocol/index.ts';

/** How long a locked write waits for another's before it is refused (never goes ahead unlocked). */
export const FILE_LOCK_BUSY_MS = 10_000;

/** Between two tries: short, since the writes it waits for take milliseconds. */
const RETRY_MS = 15;

export interface FileLockOptions {
  busyMs?: number;
  /** The refusal's message when the wait runs out. */
  busyMessage?: string;
}

/**
 * Runs `work` (asynchronous: it may await while the lock is held) under the lock at `path`, shared by every process
 * on this machine and every connection in this one: an IMMEDIATE transaction on a small SQLite file that holds no
 * data (as `withTopicsLock`). SQLite's lock is the OS's file lock, released when the holder's process dies, so a
 * crashed holder leaves no stale lock to recover. The wait polls without blocking the event loop (a busy timeout
 * would stall every request of the server, and deadlock against a holder in the same process). After `busyMs` it
 * refuses with `file-busy` (503), `work` not run.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const { busyMs = FILE_LOCK_BUSY_MS, busyMessage = `Another Weft process holds ${path}; nothing was written.` } =
    options;
  closeSync(openSync(path, 'a', 0o600));
  const database = new Database(path, { timeout: 0 });
  try {
    const deadline = Date.now() + busyMs;
    for (;;) {
      try {
        database.exec('BEGIN IMMEDIATE');
        break;
      } catch (error) {
        if (!(error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw error;
        if (Date.now() >= deadline) throw new WeftError('file-busy', `${busyMessage} Try again in a moment.`, 503);
        await sleep(RETRY_MS);
      }
    }
    try {
      return await work();
    } finally {
      database.exec('ROLLBACK');
    }
  } finally {
    database.close();
  }
}
