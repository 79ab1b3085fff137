import type { ArchiveVerification } from './archive-verify.ts';
import { statSync } from 'node:fs';
import type { IndexDatabase } from './open-index-database.ts';
import { INDEX_SCHEMA_VERSION } from './index-schema.ts';
import { readFileParseReports, sumParseReports, type FileParseReport, type ParseTotals } from './parse-totals.ts';

export interface IndexStatus {
  weftHome: string;
  databasePath: string;
  schemaVersion: number;
  roots: string[];
  sources: { sessions: number; memoryFiles: number; canvases: number; fullReads: number; appendReads: number };
  sessions: number;
  turns: number;
  touches: number;
  materials: number;
  /** Bytes of the database file plus its WAL. */
  databaseBytes: number;
  lastIndexedAt: number | null;
  /** Parse-report totals over the indexed session files. */
  parse: ParseTotals;
  /** Each session file's report (only with `perFile`, e.g. `weft status --json`). */
  parseByFile?: FileParseReport[];
  /** The preservation setting and what the archive holds. */
  archive: ArchiveStatus;
}

export interface ArchiveStatus {
  enabled: boolean;
  /** Runners whose session files are kept (none while preservation is off). */
  runners: string[];
  directory: string;
  /** Session files kept, their compressed bytes and the bytes of the sources they copy. */
  sessions: number;
  bytes: number;
  sourceBytes: number;
  /** Copies whose entry has no SHA-256 yet (written by older Weft; hashed when next copied). */
  unhashed: number;
  /** What the last `weft archive verify` (or Settings → Verify) found, or null when none ran. */
  lastVerification: ArchiveVerification | null;
  /** Indexed sessions whose file is gone, answered from the archive. */
  sourceDeleted?: number;
}

/** What a status says of the machine it runs on (home, roots, archive), whichever engine counts the rows. */
export interface StatusContext {
  weftHome: string;
  roots: readonly string[];
  perFile?: boolean;
  archive: ArchiveStatus;
}

export function readIndexStatus(
  database: IndexDatabase,
  context: StatusContext & { databasePath: string },
): IndexStatus {
  const reports = readFileParseReports(database);
  const count = (sql: string) => (database.prepare(sql).get() as { n: number | null }).n ?? 0;
  const sources = database
    .prepare(
      `SELECT kind, count(*) AS n, sum(full_reads) AS fullReads, sum(append_reads) AS appendReads
       FROM sources GROUP BY kind`,
    )
    .all() as { kind: string; n: number; fullReads: number; appendReads: number }[];
  const byKind = (kind: string) => sources.find((row) => row.kind === kind)?.n ?? 0;
  const last = database.prepare("SELECT value FROM meta WHERE key = 'last_indexed_at'").get() as
    { value: string } | undefined;
  return {
    weftHome: context.weftHome,
    databasePath: context.databasePath,
    schemaVersion: INDEX_SCHEMA_VERSION,
    roots: [...context.roots],
    sources: {
      sessions: byKind('session'),
      memoryFiles: byKind('memory'),
      canvases: byKind('canvas'),
      fullReads: sources.reduce((total, row) => total + row.fullReads, 0),
      appendReads: sources.reduce((total, row) => total + row.appendReads, 0),
    },
    sessions: count("SELECT count(*) AS n FROM sessions WHERE runner <> 'canvas'"),
    turns: count('SELECT count(*) AS n FROM turns'),
    touches: count('SELECT count(*) AS n FROM touches'),
    materials: count('SELECT count(*) AS n FROM materials'),
    databaseBytes: fileSize(context.databasePath) + fileSize(`${context.databasePath}-wal`),
    lastIndexedAt: last ? Number(last.value) : null,
    parse: sumParseReports(reports),
    ...(context.perFile ? { parseByFile: reports } : {}),
    archive: {
      ...context.archive,
      sourceDeleted: count(
        'SELECT count(*) AS n FROM sessions s JOIN sources src ON src.id = s.source_id WHERE src.deleted_at IS NOT NULL',
      ),
    },
  };
}

/** Per-source read counters, so a caller can see what an update re-read and from where. */
export interface SourceReadRecord {
  path: string;
  kind: string;
  size: number;
  bytesRead: number;
  fullReads: number;
  appendReads: number;
  lastReadFrom: number;
}

export function readSourceRecords(database: IndexDatabase): SourceReadRecord[] {
  return database
    .prepare(
      `SELECT path, kind, size, bytes_read AS bytesRead, full_reads AS fullReads, append_reads AS appendReads,
         last_read_from AS lastReadFrom FROM sources ORDER BY path`,
    )
    .all() as SourceReadRecord[];
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
