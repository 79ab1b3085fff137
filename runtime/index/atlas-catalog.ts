import { existsSync, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { delimiter, join, resolve, sep } from 'node:path';
import {
  discoverMemoryFiles,
  Fence,
  listSessionFilesSync,
  readSessionFile,
  resolveSessionRoots,
} from '../atlas/index.ts';
import {
  sessionFileReadFromAtlas,
  type MemoryFile,
  type SessionCatalog,
  type SessionFileRead,
} from './session-catalog.ts';
import { SessionReadPool } from './session-read-pool.ts';

/** Memory files a runner loads from a project's working directory. */
const PROJECT_MEMORY_FILES = ['CLAUDE.md', 'CLAUDE.local.md', '.claude/CLAUDE.md', 'AGENTS.md', 'AGENTS.override.md'];

/** Below this much to read, starting worker threads costs more than it saves. */
const BULK_BYTES = 32 * 1024 * 1024;

export interface AtlasCatalogOptions {
  env: NodeJS.ProcessEnv;
  home: string;
  /** Worker threads for bulk reads (default `WEFT_INDEX_WORKERS`, else one per core; 0 reads in-process). */
  workers?: number;
  /** Bulk work smaller than this is read in-process (default 32 MiB). */
  bulkBytes?: number;
}

/**
 * The catalog over the real session roots (`WEFT_SESSION_ROOTS`, else Settings' roots, else the runners' defaults), read through
 * the atlas fence: files are opened read-only and nothing under a root is ever written.
 * Memory files are looked for in the agents' homes (`~/.claude` for `~/.claude/projects`, and so on), in
 * `WEFT_MEMORY_ROOTS` (walked) and the sessions' working directories (their project-level files only, and
 * only inside the session roots, the agents' homes and `WEFT_MEMORY_ROOTS`: everything through a fence).
 */
export function createAtlasCatalog(options: AtlasCatalogOptions): SessionCatalog {
  const roots = resolveSessionRoots(options.env, options.home).roots;
  const fence = new Fence(roots);
  const memoryRoots = [
    ...new Set([...roots.flatMap(agentHomeOf), ...splitList(options.env.WEFT_MEMORY_ROOTS, options.home)]),
  ];
  // Memory files are read only inside the session roots, the agents' homes and WEFT_MEMORY_ROOTS: never from
  // a working directory a session file merely claims (a crafted file could name any folder on the machine).
  const memoryFence = new Fence([...roots, ...memoryRoots]);
  let pool: SessionReadPool | null = null;
  const configured = Number(options.env.WEFT_INDEX_WORKERS);
  const workers =
    options.workers ??
    (options.env.WEFT_INDEX_WORKERS && Number.isInteger(configured) ? configured : availableParallelism());
  return {
    roots,
    // The atlas lists synchronously: thousands of async stats would dominate every query's stat pass.
    listSessionFiles: async () => listSessionFilesSync(fence),
    beginBulk(bytes) {
      if (pool === null && workers > 0 && bytes >= (options.bulkBytes ?? BULK_BYTES))
        pool = new SessionReadPool(roots, workers);
    },
    async endBulk() {
      const running = pool;
      pool = null;
      await running?.close();
    },
    async readSessionFile(path, resume): Promise<SessionFileRead> {
      if (pool && !pool.broken) {
        try {
          return await pool.read(path, resume);
        } catch (error) {
          if (!pool.broken) throw error;
          // A reader thread died: this file (and the rest) are read here instead.
        }
      }
      const read = await readSessionFile(path, {
        fence,
        ...(resume ? { fromOffset: resume.fromOffset, state: resume.state } : {}),
      });
      return sessionFileReadFromAtlas(read);
    },
    async listMemoryFiles(request): Promise<MemoryFile[]> {
      if (!request.discover) return restat(request.known, memoryFence);
      // Only the project-level files of each working directory (walking a session's cwd, which may be $HOME
      // or /tmp, would read whatever lies below it), and only those inside the memory fence.
      const extra = request.workingDirectories.flatMap((directory) =>
        PROJECT_MEMORY_FILES.map((name) => join(directory, name)).filter((file) => existsSync(file)),
      );
      const found = await discoverMemoryFiles(
        memoryRoots.filter((root) => existsSync(root)),
        extra,
        { home: options.home, fence: memoryFence },
      );
      return found.map((file) => ({
        path: file.path,
        size: file.size,
        mtimeMs: file.mtimeMs,
        runner: file.runner,
        text: file.text,
      }));
    },
  };
}

/** `~/.claude` for `~/.claude/projects` (and the Codex and pi layouts); nothing for other roots. */
function agentHomeOf(root: string): string[] {
  const normalized = resolve(root);
  for (const layout of AGENT_LAYOUTS) {
    if (normalized.endsWith(layout.suffix)) return [normalized.slice(0, normalized.length - layout.strip)];
  }
  return [];
}

const AGENT_LAYOUTS = [
  { suffix: `${sep}.claude${sep}projects`, strip: `${sep}projects`.length },
  { suffix: `${sep}.codex${sep}sessions`, strip: `${sep}sessions`.length },
  { suffix: `${sep}.pi${sep}agent${sep}sessions`, strip: `${sep}sessions`.length },
];

async function restat(known: readonly { path: string; runner: string | null }[], fence: Fence): Promise<MemoryFile[]> {
  const files: MemoryFile[] = [];
  for (const file of known) {
    try {
      // A known file since swapped for a symlink out of the fence counts as gone (its rows leave).
      if (fence.rootOfReal(realpathSync(file.path)) === null) continue;
      const info = await stat(file.path);
      if (info.isFile()) files.push({ path: file.path, size: info.size, mtimeMs: info.mtimeMs, runner: file.runner });
    } catch {
      // Gone: the update removes its rows.
    }
  }
  return files;
}

function splitList(value: string | undefined, home: string): string[] {
  if (!value || value.trim() === '') return [];
  return value
    .split(delimiter)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => resolve(home, entry));
}
