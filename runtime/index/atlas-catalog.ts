import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { delimiter, dirname, resolve } from 'node:path';
import {
  discoverMemoryFiles,
  Fence,
  listSessionFilesSync,
  readSessionFile,
  sessionRootsFromEnv,
} from '../atlas/index.ts';
import type { MemoryFile, SessionCatalog, SessionFileRead } from './session-catalog.ts';
import { SessionReadPool } from './session-read-pool.ts';
import { indexedSessionFromAtlas } from './session-rows.ts';

/** Below this much to read, starting worker threads costs more than it saves. */
const BULK_BYTES = 32 * 1024 * 1024;

export interface AtlasCatalogOptions {
  env: NodeJS.ProcessEnv;
  home: string;
  /** Worker threads for bulk reads (default `WEFT_INDEX_WORKERS`, else one per core but one (the main thread writes SQLite meanwhile); 0 reads in-process). */
  workers?: number;
  /** Bulk work smaller than this is read in-process (default 32 MiB). */
  bulkBytes?: number;
}

/**
 * The catalog over the real session roots (`WEFT_SESSION_ROOTS`, else the runners' defaults), read through
 * the atlas fence: files are opened read-only and nothing under a root is ever written.
 * Memory files are looked for in the agents' homes (the parents of the session roots), in
 * `WEFT_MEMORY_ROOTS` and in the sessions' working directories.
 */
export function createAtlasCatalog(options: AtlasCatalogOptions): SessionCatalog {
  const roots = sessionRootsFromEnv(options.env, options.home);
  const fence = new Fence(roots);
  const memoryRoots = [
    ...new Set([...roots.map((root) => dirname(root)), ...splitList(options.env.WEFT_MEMORY_ROOTS, options.home)]),
  ];
  let pool: SessionReadPool | null = null;
  const configured = Number(options.env.WEFT_INDEX_WORKERS);
  const workers = options.workers ?? (options.env.WEFT_INDEX_WORKERS && Number.isInteger(configured) ? configured : Math.max(1, availableParallelism() - 1));
  return {
    roots,
    // The atlas lists synchronously: thousands of async stats would dominate every query's stat pass.
    listSessionFiles: async () => listSessionFilesSync(fence),
    beginBulk(bytes) {
      if (pool === null && workers > 0 && bytes >= (options.bulkBytes ?? BULK_BYTES)) pool = new SessionReadPool(roots, workers);
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
      return {
        runner: read.runner,
        sessions: read.sessions.map(indexedSessionFromAtlas),
        report: read.report,
        bytesConsumed: read.bytesConsumed,
        size: read.size,
        mtimeMs: read.mtimeMs,
        state: read.state,
        prefixHash: read.prefixHash,
        resumed: read.resumed,
      };
    },
    async listMemoryFiles(request): Promise<MemoryFile[]> {
      if (!request.discover) return restat(request.known);
      const extra = request.workingDirectories.filter((directory) => existsSync(directory));
      const found = await discoverMemoryFiles(
        memoryRoots.filter((root) => existsSync(root)),
        extra,
        { home: options.home },
      );
      return found.map((file) => ({
        path: file.path, size: file.size, mtimeMs: file.mtimeMs, runner: file.runner, text: file.text,
      }));
    },
  };
}

async function restat(known: readonly { path: string; runner: string | null }[]): Promise<MemoryFile[]> {
  const files: MemoryFile[] = [];
  for (const file of known) {
    try {
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

