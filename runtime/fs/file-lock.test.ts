import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.ts';

const HOLDER = fileURLToPath(new URL('./testing/lock-holder-child.ts', import.meta.url));

let directory: string;
let lockPath: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-file-lock-'));
  lockPath = join(directory, 'log.lock');
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the file lock', () => {
  it('runs two holders in this process one after the other, the second waiting without blocking the first', async () => {
    const steps: string[] = [];
    const first = withFileLock(lockPath, async () => {
      steps.push('first in');
      await pause(60); // The event loop must stay free for the first to finish while the second waits.
      steps.push('first out');
      return 1;
    });
    const second = withFileLock(lockPath, async () => {
      steps.push('second in');
      return 2;
    });
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(steps).toEqual(['first in', 'first out', 'second in']);
  });

  it('refuses with file-busy past its bound while another holds the lock, without running the work', async () => {
    const holder = new Database(lockPath);
    holder.exec('BEGIN IMMEDIATE');
    let ran = false;
    try {
      const refused = withFileLock(
        lockPath,
        async () => {
          ran = true;
        },
        { busyMs: 150, busyMessage: 'The log is busy.' },
      );
      await expect(refused).rejects.toMatchObject({ code: 'file-busy', status: 503, message: /The log is busy/ });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(ran).toBe(false);
    // Released, the lock is taken at once.
    expect(await withFileLock(lockPath, async () => 'after', { busyMs: 150 })).toBe('after');
  });

  it(
    'is free again once a holder process dies without releasing it: no stale lock to clear',
    { timeout: 30_000 },
    async () => {
      const marker = join(directory, 'held');
      const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, lockPath, marker], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        while (!existsSync(marker)) await pause(20);
        // Held by a live process, the lock refuses.
        await expect(withFileLock(lockPath, async () => 'early', { busyMs: 100 })).rejects.toMatchObject({
          code: 'file-busy',
        });
      } finally {
        child.kill('SIGKILL');
      }
      await exited;
      expect(existsSync(lockPath)).toBe(true); // The lock file stays; only the OS's lock on it went with the process.
      expect(await withFileLock(lockPath, async () => 'after the crash', { busyMs: 1_000 })).toBe('after the crash');
    },
  );
});
