import type { ParseReport } from '../../protocol/index.ts';
import type { ReadSessionResult } from '../atlas/index.ts';
import { indexedSessionFromAtlas, type IndexedSession } from './session-rows.ts';

/** A file the index may read, as seen by the cheap stat pass. */
export interface CatalogFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface MemoryFile extends CatalogFile {
  runner: string | null;
  /** The text, when discovery already read it. */
  text?: string;
}

export interface MemoryListRequest {
  /** Walk for new memory files (explicit `weft index`); otherwise only re-stat the known ones (cheap). */
  discover: boolean;
  known: readonly { path: string; runner: string | null }[];
  /** Working directories of indexed sessions, where project memory files live. */
  workingDirectories: readonly string[];
}

export interface SessionFileRead {
  runner: string | null;
  sessions: IndexedSession[];
  report: ParseReport | null;
  bytesConsumed: number;
  size: number;
  mtimeMs: number;
  state: string;
  prefixHash: string;
  /** True when reading continued from the saved state (the file grew, its prefix unchanged). */
  resumed: boolean;
}

/** What the index keeps of one atlas read: the same whether it ran in-process or in a reader thread. */
export function sessionFileReadFromAtlas(read: ReadSessionResult): SessionFileRead {
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
}

/**
 * Where the index gets its inputs. The atlas-backed catalog reads the real session roots (read-only,
 * fenced); tests and the benchmark can point it anywhere.
 */
export interface SessionCatalog {
  /** The session roots, for `weft status`. */
  readonly roots: readonly string[];
  listSessionFiles(): Promise<CatalogFile[]>;
  readSessionFile(path: string, resume: { fromOffset: number; state: string } | null): Promise<SessionFileRead>;
  listMemoryFiles(request: MemoryListRequest): Promise<MemoryFile[]>;
  /** Bulk work ahead (this many bytes to read): a catalog may start parallel readers. */
  beginBulk?(bytes: number): void;
  /** Bulk work done: stop what `beginBulk` started. */
  endBulk?(): Promise<void>;
}
