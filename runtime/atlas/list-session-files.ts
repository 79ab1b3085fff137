import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { Fence } from './fence.ts';

export interface SessionFileInfo {
  /** Absolute path under the root it was found in (resolvable through the fence). */
  path: string;
  size: number;
  mtimeMs: number;
}

/** Deep enough for every layout: Codex `YYYY/MM/DD`, Claude `<slug>/<session>/subagents/workflows/<run>`. */
export const SESSION_LIST_MAX_DEPTH = 10;
/** Folders that hold no transcripts (Claude's per-project memory, dependency and VCS folders). */
export const SESSION_SKIP_DIRS: ReadonlySet<string> = new Set(['memory', 'node_modules', '.git']);
/** JSONL files under the roots that are not transcripts. */
export const SESSION_SKIP_FILES: ReadonlySet<string> = new Set([
  'journal.jsonl',
  'history.jsonl',
  'session_index.jsonl',
]);

function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/**
 * Every `*.jsonl` (and compressed Codex `*.jsonl.zst`) file under the fence's roots, following the runners' layouts (Claude subagent
 * folders, Codex date folders, pi cwd folders). Symlinks are followed only when their real path
 * stays inside a root; each real directory is visited once; each real file is listed once (a plain
 * file wins over a symlink to it). Only reads directory listings and stats. Synchronous on purpose:
 * thousands of async stats cost a thread-pool round trip each, these cost microseconds.
 */
export function listSessionFilesSync(fence: Fence): SessionFileInfo[] {
  const found = new Map<string, SessionFileInfo>();
  const linked = new Set<string>();
  const visited = new Set<string>();

  const consider = (full: string, target: string, symbolic: boolean, name: string): void => {
    if (!(name.endsWith('.jsonl') || name.endsWith('.jsonl.zst')) || SESSION_SKIP_FILES.has(name)) return;
    if (found.has(target) && (symbolic || !linked.has(target))) return;
    try {
      const info = statSync(target);
      if (!info.isFile()) return;
      found.set(target, { path: full, size: info.size, mtimeMs: info.mtimeMs });
      if (symbolic) linked.add(target);
      else linked.delete(target);
    } catch {
      // Vanished between listing and stat (retention cleanup): skip.
    }
  };

  const walk = (directory: string, depth: number): void => {
    let real: string;
    try {
      real = realpathSync(directory);
    } catch {
      return;
    }
    if (fence.rootOfReal(real) === null || visited.has(real)) return;
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort(byName);
    for (const entry of entries) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (depth < SESSION_LIST_MAX_DEPTH && !SESSION_SKIP_DIRS.has(entry.name)) walk(full, depth + 1);
      } else if (entry.isFile()) {
        // A plain file's real path is its directory's real path plus its name: no realpath call needed.
        consider(full, path.join(real, entry.name), false, entry.name);
      } else if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(full);
        } catch {
          continue;
        }
        if (fence.rootOfReal(target) === null) continue;
        let isDirectory: boolean;
        try {
          isDirectory = statSync(target).isDirectory();
        } catch {
          continue;
        }
        if (isDirectory) {
          if (depth < SESSION_LIST_MAX_DEPTH && !SESSION_SKIP_DIRS.has(entry.name)) walk(full, depth + 1);
        } else {
          consider(full, target, true, entry.name);
        }
      }
    }
  };

  for (const root of fence.roots) walk(root, 0);
  // Codex may compress a rollout beside its plain copy (or swap between the two): the plain file wins.
  const listed = new Set([...found.values()].map((file) => file.path));
  return [...found.values()]
    .filter((file) => !(file.path.endsWith('.zst') && listed.has(file.path.slice(0, -'.zst'.length))))
    .sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}

/** `listSessionFilesSync` behind a promise, for callers that treat listing as I/O. */
export async function listSessionFiles(fence: Fence): Promise<SessionFileInfo[]> {
  return listSessionFilesSync(fence);
}
