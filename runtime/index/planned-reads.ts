import { open, readFile } from 'node:fs/promises';
import { readCanvasRecord, type MaterialRow } from './index-canvas.ts';
import type { IndexWriter } from './index-writer.ts';
import type { IndexDatabase } from './open-index-database.ts';
import type { SessionArchive } from './session-archive.ts';
import { sessionFileReadFromAtlas, type SessionCatalog } from './session-catalog.ts';
import type { Planned } from './source-listing.ts';
import type { IndexProgress, UpdateSummary } from './update-summary.ts';

/** Flush pending reads to SQLite in one transaction once this much was read (bounds memory). */
const BATCH_BYTES = 8 * 1024 * 1024;
const BATCH_FILES = 500;
const MEMORY_FILE_MAXIMUM_BYTES = 4 * 1024 * 1024;
/** Files read at once: enough to hide read latency, and in bulk to keep workers fed while a batch commits. */
const READ_CONCURRENCY = 2;
const BULK_READ_CONCURRENCY = 6;

/** Where copies of session files are kept, and for which runners. */
export interface ArchiveContext {
  store: SessionArchive;
  keeps(runner: string | null): boolean;
}

/**
 * Reads the planned files with a few reads in flight (their waits overlap, or the catalog's worker threads
 * run in parallel) while the writes stay on this thread, batched in transactions.
 */
export async function readPlannedFiles(
  database: IndexDatabase,
  catalog: SessionCatalog,
  writer: IndexWriter,
  planned: Planned[],
  summary: UpdateSummary,
  onProgress?: (progress: IndexProgress) => void,
  archive?: ArchiveContext,
): Promise<void> {
  const bytesTotal = planned.reduce((total, item) => total + Math.max(0, item.file.size - resumeOffset(item)), 0);
  const progress: IndexProgress = { filesDone: 0, filesTotal: planned.length, bytesDone: 0, bytesTotal };
  let pending: (() => void)[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const work = pending;
    pending = [];
    pendingBytes = 0;
    database
      .transaction(() => {
        for (const write of work) write();
      })
      .immediate();
  };

  if (bytesTotal > 0) catalog.beginBulk?.(bytesTotal);
  const concurrency = bytesTotal >= BATCH_BYTES ? BULK_READ_CONCURRENCY : READ_CONCURRENCY;
  let next = 0;
  const readOne = async (): Promise<void> => {
    while (next < planned.length) {
      const item = planned[next++]!;
      try {
        const write = await readPlanned(item, catalog, writer, summary, archive);
        pending.push(write);
        pendingBytes += item.file.size - resumeOffset(item);
      } catch (error) {
        summary.failed.push({ path: item.file.path, reason: (error as Error).message });
      }
      progress.filesDone += 1;
      progress.bytesDone += Math.max(0, item.file.size - resumeOffset(item));
      onProgress?.(progress);
      if (pendingBytes >= BATCH_BYTES || pending.length >= BATCH_FILES) flush();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, planned.length) }, readOne));
  } finally {
    await catalog.endBulk?.();
  }
  flush();
}

/** Where reading a planned file starts: where it stopped, for a session file that grew with a saved state. */
export function resumeOffset(item: Planned): number {
  const previous = item.previous;
  // A file back after it was gone was last read from the archive copy: its saved state names that copy.
  if (!previous || item.kind !== 'session' || !previous.hasState || previous.deletedAt !== null) return 0;
  return item.file.size >= previous.bytesRead ? previous.bytesRead : 0;
}

/** Reads one planned file (async, outside any transaction) and returns the synchronous write of its rows. */
async function readPlanned(
  item: Planned,
  catalog: SessionCatalog,
  writer: IndexWriter,
  summary: UpdateSummary,
  archive: ArchiveContext | undefined,
): Promise<() => void> {
  const { file, previous } = item;
  if (item.kind === 'session' && item.archiveOnly && previous && archive) {
    // Indexed before copies were kept (or its runner switched back on): only the copy is made.
    await archive.store.keep(file.path, previous.runner!, previous.bytesRead, previous.archivedBytes);
    summary.archived += 1;
    return () => writer.markArchived(file.path, previous.bytesRead);
  }
  if (item.kind === 'session' && item.archived && archive) {
    const entry = item.archived;
    const read = sessionFileReadFromAtlas(await archive.store.readSession(entry));
    summary.bytesRead += entry.bytes;
    summary.fullReads += 1;
    for (const session of read.sessions) summary.turnsWritten += session.turns.length;
    return () => writer.writeSessionSource(file.path, read, 0, { archivedBytes: entry.bytes, fromArchive: true });
  }
  if (item.kind === 'session') {
    const offset = resumeOffset(item);
    const state = offset > 0 && previous ? writer.savedState(previous.id) : null;
    const resume = state !== null ? { fromOffset: offset, state } : null;
    const read = await catalog.readSessionFile(file.path, resume);
    const resumed = resume !== null && read.resumed;
    summary.bytesRead += read.size - (resumed ? offset : 0);
    if (resumed) summary.appendReads += 1;
    else summary.fullReads += 1;
    for (const session of read.sessions) summary.turnsWritten += session.turns.length;
    let archivedBytes = 0;
    // Nothing consumed (no complete line, or no runner recognised): there is nothing to keep.
    if (read.bytesConsumed > 0 && archive?.keeps(read.runner)) {
      try {
        await archive.store.keep(file.path, read.runner!, read.bytesConsumed, resumed ? offset : 0);
        archivedBytes = read.bytesConsumed;
        summary.archived += 1;
      } catch (error) {
        // The rows are still written; the copy is tried again at the next update.
        summary.failed.push({ path: file.path, reason: `not archived: ${(error as Error).message}` });
      }
    }
    return () =>
      writer.writeSessionSource(file.path, read, resumed ? offset : 0, { archivedBytes, fromArchive: false });
  }
  if (item.kind === 'memory') {
    const text = file.text ?? (await readHead(file.path, MEMORY_FILE_MAXIMUM_BYTES)).toString('utf8');
    summary.bytesRead += file.size;
    summary.fullReads += 1;
    const material: MaterialRow = {
      kind: 'memory',
      runner: item.runner,
      sessionId: null,
      title: file.path,
      text,
      turnKey: `memory:${file.path}`,
      cwd: null,
      at: Math.round(file.mtimeMs),
    };
    return () => writer.writeMaterialsSource(file, 'memory', item.runner, null, [material]);
  }
  const text = await readFile(file.path, 'utf8');
  const parsed = readCanvasRecord(text);
  if (!parsed.ok) throw new Error(`canvas record refused: ${parsed.reason}`);
  summary.bytesRead += Buffer.byteLength(text);
  summary.fullReads += 1;
  summary.turnsWritten += parsed.canvas.session.turns.length;
  return () => writer.writeMaterialsSource(file, 'canvas', 'canvas', parsed.canvas, parsed.canvas.materials);
}

/** The first `bytes` of a file, without reading the rest (a memory file can grow without bound). */
async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const wanted = Math.min(bytes, (await handle.stat()).size);
    const buffer = Buffer.alloc(wanted);
    let filled = 0;
    while (filled < wanted) {
      const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
