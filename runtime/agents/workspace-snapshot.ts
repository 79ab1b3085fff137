import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The scan outside a repository stops here, and says so: a turn never waits on a huge tree. */
export const SCAN_LIMIT = 20_000;
/** Files up to this size are compared by content; larger ones (and those past the budget) by size and mtime. */
const HASH_FILE_LIMIT = 4 * 1024 * 1024;
const HASH_BUDGET = 256 * 1024 * 1024;
/** Never compared: dependencies, Git's own store, and the materials Weft copies in for the turn itself. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** What a file looked like: its content hash (or size and mtime), `absent`, or `clean` (as committed). */
export interface FileState {
  state: string;
  /** Git: the path is in HEAD, so when Git did not list it the file was as committed (not absent). */
  committed: boolean;
}

export interface WorkspaceSnapshot {
  method: 'git-status' | 'scan';
  /**
   * Absolute path → state. With `git-status`, the paths Git lists as changed or untracked; a later snapshot
   * also holds every path of the earlier one, so the two compare path by path.
   */
  files: Map<string, FileState>;
  /** The scan stopped at `limit` entries. */
  bounded: boolean;
  limit: number;
}

export const ABSENT = 'absent';
export const CLEAN = 'clean';

interface Budget {
  left: number;
}

async function fileState(path: string, budget: Budget): Promise<string> {
  const stat = await lstat(path).catch(() => null);
  if (!stat) return ABSENT;
  if (!stat.isFile()) return `${stat.isDirectory() ? 'folder' : 'other'}:${stat.mtimeMs}`;
  if (stat.size > HASH_FILE_LIMIT || stat.size > budget.left) return `size:${stat.size}:${stat.mtimeMs}`;
  budget.left -= stat.size;
  const content = await readFile(path).catch(() => null);
  return content ? `sha256:${createHash('sha256').update(content).digest('hex')}` : ABSENT;
}

/** The top folder of the Git repository `cwd` is in, or null outside one. */
export async function gitTopLevel(cwd: string): Promise<string | null> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8' });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/**
 * `git status --porcelain=v1 -z`: `XY path\0` (paths from the repository's top), a rename's or copy's origin as
 * one more `\0` field. Untracked (`??`) and newly added (`A`) paths are not in HEAD.
 */
export function porcelainEntries(output: string): { path: string; committed: boolean }[] {
  const fields = output.split('\0');
  const entries: { path: string; committed: boolean }[] = [];
  for (let index = 0; index < fields.length; index += 1) {
    const field = fields[index]!;
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    entries.push({ path: field.slice(3), committed: code !== '??' && code[0] !== 'A' });
    if (code[0] === 'R' || code[0] === 'C') {
      const origin = fields[index + 1];
      if (origin) entries.push({ path: origin, committed: true });
      index += 1;
    }
  }
  return entries;
}

async function gitSnapshot(top: string): Promise<WorkspaceSnapshot> {
  const { stdout } = await run('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'], {
    cwd: top,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const budget = { left: HASH_BUDGET };
  const files = new Map<string, FileState>();
  for (const entry of porcelainEntries(stdout)) {
    const absolute = join(top, entry.path);
    files.set(absolute, { state: await fileState(absolute, budget), committed: entry.committed });
  }
  return { method: 'git-status', files, bounded: false, limit: Infinity };
}

async function scanSnapshot(cwd: string, limit: number): Promise<WorkspaceSnapshot> {
  const files = new Map<string, FileState>();
  const materials = join(cwd, '.weft', 'materials');
  let bounded = false;
  // Depth first in name order, so two scans of an unchanged tree stop at the same entry.
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (bounded) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name) || path === materials) continue;
        await walk(path);
        continue;
      }
      if (files.size >= limit) {
        bounded = true;
        return;
      }
      const stat = await lstat(path).catch(() => null);
      if (stat) files.set(path, { state: `size:${stat.size}:${stat.mtimeMs}`, committed: false });
    }
  };
  await walk(cwd);
  return { method: 'scan', files, bounded, limit };
}

/**
 * What the working directory holds, to compare before and after a turn: in a Git repository the paths
 * `git status` lists (tracked changes and untracked files, with their content hashes, so a file already dirty
 * that a command changes again is seen); elsewhere every file's size and mtime, at most `limit` of them.
 */
export async function snapshotWorkspace(
  cwd: string,
  earlier?: WorkspaceSnapshot,
  limit: number = SCAN_LIMIT,
): Promise<WorkspaceSnapshot> {
  const top = earlier?.method === 'scan' ? null : await gitTopLevel(cwd);
  let snapshot: WorkspaceSnapshot | null = null;
  if (top) {
    // A repository Git cannot read (a broken index, say) is scanned like any folder.
    snapshot = await gitSnapshot(top).catch(() => null);
  }
  snapshot ??= await scanSnapshot(cwd, limit);
  if (earlier) {
    // A path listed before and not now: gone, back as committed (Git), or past the scan's bound.
    for (const [path, before] of earlier.files) {
      if (snapshot.files.has(path)) continue;
      const stat = await lstat(path).catch(() => null);
      const state = !stat ? ABSENT : snapshot.method === 'git-status' ? CLEAN : `size:${stat.size}:${stat.mtimeMs}`;
      snapshot.files.set(path, { state, committed: before.committed });
    }
  }
  return snapshot;
}
