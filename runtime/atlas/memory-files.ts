import type { Dirent } from 'node:fs';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Runner } from '../../protocol/index.ts';
import type { FileHandle } from 'node:fs/promises';
import type { Fence } from './fence.ts';
import { decodeUtf8 } from './line-decoder.ts';
import { emptyParseReport } from './parse-report.ts';

export type MemoryKind = 'project' | 'user' | 'rules' | 'auto-memory' | 'generated-memory';

export interface MemoryFile {
  /** Absolute path as found (a symlink keeps its own path; see `realPath`). */
  path: string;
  realPath: string;
  /** The runner that writes or primarily loads the file. */
  runner: Runner;
  /** Every runner that loads it (pi loads both AGENTS.md and CLAUDE.md). */
  readBy: Runner[];
  kind: MemoryKind;
  mtimeMs: number;
  size: number;
  text: string;
  /** True when the text was cut at MAX_MEMORY_BYTES. */
  truncated: boolean;
}

export const MAX_MEMORY_BYTES = 1024 * 1024;
const MAX_DEPTH = 5;
const MAX_DIRECTORIES = 5000;
const INSTRUCTION_FILES = new Set(['CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'AGENTS.override.md']);
// Build output, transcripts, and agent-home folders that hold copies of other people's files (plugin checkouts, backups).
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'target',
  'sessions',
  'archived_sessions',
  'subagents',
  'log',
  'plugins',
  'file-history',
  'shell-snapshots',
  'todos',
  'debug',
  'cache',
]);

function classify(file: string, home: string | null): { runner: Runner; readBy: Runner[]; kind: MemoryKind } | null {
  const name = path.basename(file);
  const parts = file.split(path.sep);
  const parent = parts[parts.length - 2] ?? '';
  const grand = parts[parts.length - 3] ?? '';
  const underPi = parts.includes('.pi');
  const underCodexMemories = parts.includes('memories');
  // Claude auto memory: <root>/projects/<slug>/memory/*.md
  const memoryIndex = parts.lastIndexOf('memory');
  if (name.endsWith('.md') && memoryIndex >= 2 && parts[memoryIndex - 2] === 'projects') {
    return { runner: 'claude-code', readBy: ['claude-code'], kind: 'auto-memory' };
  }
  if (name.endsWith('.md') && underCodexMemories)
    return { runner: 'codex', readBy: ['codex'], kind: 'generated-memory' };
  if (name.endsWith('.md') && parent === 'rules' && (grand === '.claude' || grand === '')) {
    return { runner: 'claude-code', readBy: ['claude-code'], kind: 'rules' };
  }
  if (!INSTRUCTION_FILES.has(name)) return null;
  const isUserLevel =
    parent === '.codex' ||
    (parent === 'agent' && grand === '.pi') ||
    (parent === '.claude' && home !== null && parts.slice(0, -2).join(path.sep) === home);
  const kind: MemoryKind = isUserLevel ? 'user' : 'project';
  if (name.startsWith('CLAUDE')) return { runner: underPi ? 'pi' : 'claude-code', readBy: ['claude-code', 'pi'], kind };
  return { runner: underPi ? 'pi' : 'codex', readBy: ['codex', 'pi'], kind };
}

async function readCapped(file: string): Promise<{ text: string; truncated: boolean }> {
  const handle = await open(file, 'r');
  try {
    return await readCappedFrom(handle);
  } finally {
    await handle.close();
  }
}

async function readCappedFrom(handle: FileHandle): Promise<{ text: string; truncated: boolean }> {
  const buffer = Buffer.alloc(MAX_MEMORY_BYTES + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  const truncated = filled > MAX_MEMORY_BYTES;
  return { text: decodeUtf8(buffer.subarray(0, Math.min(filled, MAX_MEMORY_BYTES)), emptyParseReport()), truncated };
}

/**
 * The agents' own memory and instruction files under `roots` (agent homes such as `~/.claude`,
 * `~/.codex`, `~/.pi/agent`, or session roots) and `extraDirs` (project working directories):
 * CLAUDE.md / CLAUDE.local.md / AGENTS.md / AGENTS.override.md at any depth ≤ 5, `.claude/rules/*.md`,
 * Claude's `projects/<slug>/memory/*.md` and Codex `memories/**.md`. Symlinks are followed once
 * (each real directory is walked once, each symlinked file read through its target). Read-only.
 * `options.home` marks `<home>/.claude/CLAUDE.md` as user level rather than project level.
 * With `options.fence`, nothing outside it is walked or read (files are opened through `Fence.open`): a
 * working directory a session file merely claims is then read only when it lies inside the fence.
 */
export async function discoverMemoryFiles(
  roots: readonly string[],
  extraDirs: readonly string[] = [],
  options: { home?: string; fence?: Fence } = {},
): Promise<MemoryFile[]> {
  const fence = options.fence ?? null;
  const home = options.home === undefined ? null : path.resolve(options.home);
  const results = new Map<string, MemoryFile>();
  const visited = new Set<string>();
  let budget = MAX_DIRECTORIES;

  async function consider(file: string): Promise<void> {
    const kind = classify(file, home);
    if (kind === null || results.has(file)) return;
    try {
      let target: string;
      let info: Awaited<ReturnType<typeof stat>>;
      let read: { text: string; truncated: boolean };
      if (fence !== null) {
        const opened = await fence.open(file);
        try {
          target = opened.real;
          info = await opened.handle.stat();
          read = await readCappedFrom(opened.handle);
        } finally {
          await opened.handle.close();
        }
      } else {
        target = await realpath(file);
        info = await stat(target);
        if (!info.isFile()) return;
        read = await readCapped(target);
      }
      const { text, truncated } = read;
      results.set(file, {
        path: file,
        realPath: target,
        ...kind,
        mtimeMs: info.mtimeMs,
        size: info.size,
        text,
        truncated,
      });
    } catch {
      // Dangling symlink or vanished file: nothing to read.
    }
  }

  async function walk(directory: string, depth: number): Promise<void> {
    if (budget <= 0) return;
    let real: string;
    try {
      real = await realpath(directory);
    } catch {
      return;
    }
    if (visited.has(real) || (fence !== null && fence.rootOfReal(real) === null)) return;
    visited.add(real);
    budget -= 1;
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
      if (entry.isSymbolicLink()) {
        try {
          isDirectory = (await stat(full)).isDirectory();
        } catch {
          continue;
        }
      }
      if (isDirectory) {
        const hidden = entry.name.startsWith('.') && !['.claude', '.codex', '.pi', '.agents'].includes(entry.name);
        if (depth < MAX_DEPTH && !hidden && !SKIP_DIRS.has(entry.name)) await walk(full, depth + 1);
      } else if (entry.name.endsWith('.md')) {
        await consider(full);
      }
    }
  }

  for (const directory of [...roots, ...extraDirs]) {
    const absolute = path.resolve(directory);
    try {
      if ((await lstat(absolute)).isFile()) {
        await consider(absolute);
        continue;
      }
    } catch {
      continue;
    }
    await walk(absolute, 0);
  }
  return [...results.values()].sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}
