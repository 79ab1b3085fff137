import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** `writeFileAtomic`'s temp names: `.<target>.<pid>.<12 hex>.tmp`. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/** True when a process with this id exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temp files a crash left in `directory` (a write interrupted before its rename). A temp file of a process
 * still running is its write under way and is left alone. Returns the names removed.
 */
export async function removeOrphanTemps(directory: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    try {
      await unlink(join(directory, name));
      removed.push(name);
    } catch {
      /* gone already */
    }
  }
  return removed;
}
