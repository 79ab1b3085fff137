import { IndexWriter } from './index-writer.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { readPlannedFiles } from './planned-reads.ts';
import type { SessionCatalog } from './session-catalog.ts';
import { listSources } from './source-listing.ts';

export interface IndexProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface UpdateOptions {
  /** Directory of durable canvas records (`$WEFT_HOME/canvases`). */
  canvasesDirectory: string;
  onProgress?: (progress: IndexProgress) => void;
  /** Walk for memory files not seen before (explicit `weft index`); queries only re-stat known ones. */
  discoverMemory?: boolean;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export interface UpdateSummary {
  /** Files seen by the stat pass (sessions, memory files, canvas records). */
  files: number;
  /** Files read now, in full. */
  fullReads: number;
  /** Files that grew and were read from where reading had stopped. */
  appendReads: number;
  /** Files whose rows went because the file vanished. */
  removed: number;
  /** Files that could not be read (their previous rows, if any, are kept). */
  failed: { path: string; reason: string }[];
  bytesRead: number;
  turnsWritten: number;
  durationMs: number;
}

/**
 * Brings the index up to date with the catalog: a cheap stat pass (`listSources`), then only files that
 * moved are read (`readPlannedFiles`). A file that grew with its prefix unchanged is resumed from its saved
 * accumulator state; a file rewritten is read again and its rows replaced; a file gone takes its rows with it.
 */
export async function updateIndex(
  database: IndexDatabase,
  catalog: SessionCatalog,
  options: UpdateOptions,
): Promise<UpdateSummary> {
  const now = options.now ?? Date.now;
  const started = performance.now();
  const { planned, vanished, seen } = await listSources(database, catalog, {
    canvasesDirectory: options.canvasesDirectory,
    discoverMemory: options.discoverMemory ?? false,
  });
  const summary: UpdateSummary = {
    files: seen,
    fullReads: 0,
    appendReads: 0,
    removed: 0,
    failed: [],
    bytesRead: 0,
    turnsWritten: 0,
    durationMs: 0,
  };
  const writer = new IndexWriter(database, now);
  if (vanished.length > 0) {
    database
      .transaction(() => {
        for (const row of vanished) writer.removeSource(row.id);
      })
      .immediate();
    summary.removed = vanished.length;
  }
  await readPlannedFiles(database, catalog, writer, planned, summary, options.onProgress);
  // A query's stat pass that found nothing to do writes nothing.
  if (
    planned.length > 0 ||
    vanished.length > 0 ||
    !database.prepare("SELECT 1 FROM meta WHERE key = 'last_indexed_at'").get()
  ) {
    database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('last_indexed_at', ?)").run(String(now()));
  }
  summary.durationMs = performance.now() - started;
  return summary;
}
