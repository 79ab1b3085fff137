import { open, readFile } from 'node:fs/promises';
import { readCanvasRecord, type MaterialRow } from './canvas-records.ts';
import type { IndexWriter } from './index-writer.ts';
import type { IndexDatabase } from './open-index-database.ts';
import type { SessionCatalog } from './session-catalog.ts';
import type { Planned } from './source-listing.ts';
import type { IndexProgress, UpdateSummary } from './update-index.ts';

/** Flush pending reads to SQLite in one transaction once this much was read (bounds memory). */
const BATCH_BYTES = 8 * 1024 * 1024;
const BATCH_FILES = 500;
const MEMORY_FILE_MAXIMUM_BYTES = 4 * 1024 * 1024;
/** Files read at once: enough to hide read latency, and in bulk to keep workers fed while a batch commits. */
const READ_CONCURRENCY = 2;
const BULK_READ_CONCURRENCY = 6;

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
        const write = await readPlanned(item, catalog, writer, summary);
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
  if (!previous || item.kind !== 'session' || !previous.hasState) return 0;
  return item.file.size >= previous.bytesRead ? previous.bytesRead : 0;
}

/** Reads one planned file (async, outside any transaction) and returns the synchronous write of its rows. */
async function readPlanned(
  item: Planned,
  catalog: SessionCatalog,
  writer: IndexWriter,
  summary: UpdateSummary,
): Promise<() => void> {
  const { file, previous } = item;
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
    return () => writer.writeSessionSource(file.path, read, resumed ? offset : 0);
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
