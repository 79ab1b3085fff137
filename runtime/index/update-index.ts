import { IndexWriter } from './index-writer.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { readPlannedFiles, type ArchiveContext } from './planned-reads.ts';
import { ARCHIVE_RUNNERS } from './session-archive.ts';
import type { SessionCatalog } from './session-catalog.ts';
import { listSources } from './source-listing.ts';
import { withinRoots } from './within-roots.ts';
import type { IndexProgress, UpdateSummary } from './update-summary.ts';

export type { IndexProgress, UpdateSummary } from './update-summary.ts';

export interface UpdateOptions {
  /** Directory of durable canvas records (`$WEFT_HOME/canvases`). */
  canvasesDirectory: string;
  onProgress?: (progress: IndexProgress) => void;
  /** Walk for memory files not seen before (explicit `weft index`); queries only re-stat known ones. */
  discoverMemory?: boolean;
  /** Clock, injectable for tests. */
  now?: () => number;
  /** Keep compressed copies of session files, and keep rows of those whose file is gone (preservation on). */
  archive?: ArchiveContext;
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
  const archive = options.archive;
  const writer = new IndexWriter(database, now);
  if (archive) {
    // A runner switched off: its copies go, and with them the rows of its sessions whose file is gone.
    // Its folder gone (`weft purge --archive`): copies are made again of the files still there.
    for (const runner of ARCHIVE_RUNNERS) {
      const keeps = archive.keeps(runner);
      if (!keeps) archive.store.drop(runner);
      if (!keeps || !archive.store.holds(runner))
        database.prepare('UPDATE sources SET archived_bytes = 0 WHERE runner = ? AND archived_bytes > 0').run(runner);
    }
  }
  const { planned, vanished, seen } = await listSources(database, catalog, {
    canvasesDirectory: options.canvasesDirectory,
    discoverMemory: options.discoverMemory ?? false,
    ...(archive
      ? {
          archives: (runner: string | null) => archive.keeps(runner),
          // Listing every entry costs a file read each: only the explicit index pass does it.
          ...(options.discoverMemory ? { archived: archive.store.list() } : {}),
        }
      : {}),
  });
  const summary: UpdateSummary = {
    files: seen,
    fullReads: 0,
    appendReads: 0,
    removed: 0,
    sourceDeleted: 0,
    archived: 0,
    failed: [],
    bytesRead: 0,
    turnsWritten: 0,
    durationMs: 0,
  };
  // Only a file gone from a root still read is kept from the archive: a root removed takes its sessions with it.
  const underRoots = withinRoots(catalog.roots);
  const kept = (row: (typeof vanished)[number]) =>
    row.kind === 'session' &&
    underRoots(row.path) &&
    archive?.keeps(row.runner) === true &&
    archive.store.has(row.path, row.runner!);
  const changes = vanished.filter((row) => !(row.deletedAt !== null && kept(row)));
  if (changes.length > 0) {
    database
      .transaction(() => {
        for (const row of changes) {
          if (kept(row)) {
            writer.markDeleted(row.id);
            summary.sourceDeleted += 1;
          } else {
            writer.removeSource(row.id);
            summary.removed += 1;
          }
        }
      })
      .immediate();
  }
  await readPlannedFiles(database, catalog, writer, planned, summary, options.onProgress, archive);
  // A query's stat pass that found nothing to do writes nothing.
  if (
    planned.length > 0 ||
    changes.length > 0 ||
    !database.prepare("SELECT 1 FROM meta WHERE key = 'last_indexed_at'").get()
  ) {
    database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('last_indexed_at', ?)").run(String(now()));
  }
  summary.durationMs = performance.now() - started;
  return summary;
}
