import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Fence } from './fence.ts';

export interface SessionFileInfo {
  /** Absolute path under the root it was found in (resolvable through the fence). */
  path: string;
  size: number;
  mtimeMs: number;
}

/** Deep enough for every layout: Codex `YYYY/MM/DD`, Claude `<slug>/<session>/subagents/workflows/<run>`. */
const MAX_DEPTH = 10;
/** Folders that hold no transcripts (Claude's per-project memory, pi extension artefacts). */
const SKIP_DIRS = new Set(['memory', 'node_modules', '.git']);
/** JSONL files under the roots that are not transcripts. */
const SKIP_FILES = new Set(['journal.jsonl', 'history.jsonl', 'session_index.jsonl']);

/**
 * Every `*.jsonl` file under the fence's roots, following the runners' layouts (Claude subagent
 * folders, Codex date folders, pi cwd folders). Symlinks are followed only when their real path
 * stays inside a root, and each real directory is visited once. Only reads directory listings.
 */
export async function listSessionFiles(fence: Fence): Promise<SessionFileInfo[]> {
  const found = new Map<string, SessionFileInfo>();
  const visited = new Set<string>();
  const linked = new Set<string>();

  async function walk(directory: string, depth: number): Promise<void> {
    let real: string;
    try {
      real = await realpath(directory);
    } catch {
      return;
    }
    if (fence.rootOfReal(real) === null || visited.has(real)) return;
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(directory, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = await realpath(full);
          if (fence.rootOfReal(target) === null) continue;
          const info = await stat(target);
          isDirectory = info.isDirectory();
          isFile = info.isFile();
        } catch {
          continue;
        }
      }
      if (isDirectory) {
        if (depth < MAX_DEPTH && !SKIP_DIRS.has(entry.name)) await walk(full, depth + 1);
      } else if (isFile && entry.name.endsWith('.jsonl') && !SKIP_FILES.has(entry.name)) {
        try {
          const target = await realpath(full);
          if (fence.rootOfReal(target) === null) continue;
          // One entry per real file; a plain file wins over a symlink to it.
          if (found.has(target) && (entry.isSymbolicLink() || !linked.has(target))) continue;
          const info = await stat(target);
          found.set(target, { path: full, size: info.size, mtimeMs: info.mtimeMs });
          if (entry.isSymbolicLink()) linked.add(target);
          else linked.delete(target);
        } catch {
          // Vanished between listing and stat (retention cleanup): skip.
        }
      }
    }
  }

  for (const root of fence.roots) await walk(root, 0);
  return [...found.values()].sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}
