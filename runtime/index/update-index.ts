import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readCanvasRecord, type IndexedCanvas, type MaterialRow } from './index-canvas.ts';
import type { IndexDatabase } from './open-index-database.ts';
import type { CatalogFile, MemoryFile, SessionCatalog, SessionFileRead } from './session-catalog.ts';
import { SessionRowWriter } from './session-rows.ts';

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

type SourceKind = 'session' | 'memory' | 'canvas';

interface SourceRow {
  id: number;
  path: string;
  kind: SourceKind;
  runner: string | null;
  size: number;
  mtimeMs: number;
  bytesRead: number;
  /** Whether an accumulator state is saved (the state itself is loaded only for a file that grew). */
  hasState: number;
}

interface Planned {
  file: CatalogFile & { text?: string };
  kind: SourceKind;
  runner: string | null;
  previous: SourceRow | undefined;
}

/** Flush pending reads to SQLite in one transaction once this much was read (bounds memory). */
const BATCH_BYTES = 8 * 1024 * 1024;
const BATCH_FILES = 500;
const MEMORY_FILE_MAXIMUM_BYTES = 4 * 1024 * 1024;
/** Files read at once: enough to hide read latency, and in bulk to keep workers fed while a batch commits. */
const READ_CONCURRENCY = 2;
const BULK_READ_CONCURRENCY = 6;

/**
 * Brings the index up to date with the catalog: a cheap stat pass, then only files that moved are read.
 * A file that grew with its prefix unchanged is resumed from its saved accumulator state; a file rewritten
 * is read again and its rows replaced; a file gone takes its rows with it.
 */
export async function updateIndex(
  database: IndexDatabase,
  catalog: SessionCatalog,
  options: UpdateOptions,
): Promise<UpdateSummary> {
  const now = options.now ?? Date.now;
  const started = performance.now();
  const known = new Map<string, SourceRow>();
  for (const row of database
    .prepare(
      `SELECT id, path, kind, runner, size, mtime_ms AS mtimeMs, bytes_read AS bytesRead,
         (SELECT count(*) FROM source_states WHERE source_id = sources.id) AS hasState FROM sources`,
    )
    .all() as SourceRow[]) {
    known.set(row.path, row);
  }
  const knownMemory = [...known.values()].filter((row) => row.kind === 'memory');
  const workingDirectories = options.discoverMemory
    ? (database
        .prepare("SELECT DISTINCT cwd FROM sessions WHERE cwd IS NOT NULL AND runner <> 'canvas'")
        .pluck()
        .all() as string[])
    : [];
  const [sessionFiles, memoryFiles, canvasFiles] = await Promise.all([
    catalog.listSessionFiles(),
    catalog
      .listMemoryFiles({ discover: options.discoverMemory ?? false, known: knownMemory, workingDirectories })
      // Discovery failing must not read as "every memory file vanished": keep what is known as it is.
      .catch(() =>
        knownMemory.map((row): MemoryFile => ({
          path: row.path,
          size: row.size,
          mtimeMs: row.mtimeMs,
          runner: row.runner,
        })),
      ),
    listCanvasFiles(options.canvasesDirectory),
  ]);

  const planned: Planned[] = [];
  const seen = new Set<string>();
  const consider = (file: CatalogFile, kind: SourceKind, runner: string | null) => {
    if (seen.has(file.path)) return;
    seen.add(file.path);
    const previous = known.get(file.path);
    if (previous && previous.kind === kind && previous.size === file.size && previous.mtimeMs === file.mtimeMs) return;
    planned.push({ file, kind, runner, previous });
  };
  for (const file of sessionFiles) consider(file, 'session', null);
  for (const file of memoryFiles) consider(file, 'memory', file.runner);
  for (const file of canvasFiles) consider(file, 'canvas', 'canvas');
  const vanished = [...known.values()].filter((row) => !seen.has(row.path));

  const summary: UpdateSummary = {
    files: seen.size,
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

  // Reads overlap (their waits, or parallel workers); writes stay on this thread, batched in transactions.
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
      options.onProgress?.(progress);
      if (pendingBytes >= BATCH_BYTES || pending.length >= BATCH_FILES) flush();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, planned.length) }, readOne));
  } finally {
    await catalog.endBulk?.();
  }
  flush();
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

function resumeOffset(item: Planned): number {
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

async function listCanvasFiles(directory: string): Promise<CatalogFile[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  const files: CatalogFile[] = [];
  for (const name of names.filter((candidate) => candidate.endsWith('.weft.json')).sort()) {
    const path = join(directory, name);
    try {
      const info = await stat(path);
      if (info.isFile()) files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
    } catch {
      // Gone between readdir and stat: the next pass will not see it either.
    }
  }
  return files;
}

/** The synchronous row writes of one update, with statements prepared once. */
class IndexWriter {
  private readonly rows: SessionRowWriter;
  private readonly upsertSource;
  private readonly deleteSource;
  private readonly deleteSessionsOf;
  private readonly deleteMaterialsOf;
  private readonly insertMaterial;
  private readonly selectState;
  private readonly upsertState;
  private readonly deleteState;

  constructor(
    database: IndexDatabase,
    private readonly now: () => number,
  ) {
    this.rows = new SessionRowWriter(database);
    this.upsertSource = database.prepare(
      `INSERT INTO sources (path, kind, runner, size, mtime_ms, bytes_read, prefix_hash, full_reads, append_reads,
         last_read_from, report, indexed_at)
       VALUES (@path, @kind, @runner, @size, @mtimeMs, @bytesRead, @prefixHash, @full, @append, @from, @report, @at)
       ON CONFLICT (path) DO UPDATE SET kind = excluded.kind, runner = excluded.runner, size = excluded.size,
         mtime_ms = excluded.mtime_ms, bytes_read = excluded.bytes_read, prefix_hash = excluded.prefix_hash,
         full_reads = full_reads + excluded.full_reads,
         append_reads = append_reads + excluded.append_reads, last_read_from = excluded.last_read_from,
         report = excluded.report, indexed_at = excluded.indexed_at
       RETURNING id`,
    );
    this.deleteSource = database.prepare('DELETE FROM sources WHERE id = ?');
    this.selectState = database.prepare('SELECT state FROM source_states WHERE source_id = ?');
    this.upsertState = database.prepare(
      'INSERT INTO source_states (source_id, state) VALUES (?, ?) ON CONFLICT (source_id) DO UPDATE SET state = excluded.state',
    );
    this.deleteState = database.prepare('DELETE FROM source_states WHERE source_id = ?');
    this.deleteSessionsOf = database.prepare('DELETE FROM sessions WHERE source_id = ?');
    this.deleteMaterialsOf = database.prepare('DELETE FROM materials WHERE source_id = ?');
    this.insertMaterial = database.prepare(
      `INSERT INTO materials (source_id, kind, runner, session_id, title, text, turn_key, cwd, at)
       VALUES (@sourceId, @kind, @runner, @sessionId, @title, @text, @turnKey, @cwd, @at)`,
    );
  }

  savedState(sourceId: number): string | null {
    return (this.selectState.get(sourceId) as { state: string | null } | undefined)?.state ?? null;
  }

  removeSource(id: number): void {
    this.deleteSource.run(id);
  }

  /** `resumedFrom` > 0: the rows already stored stay and the read's sessions are merged in. */
  writeSessionSource(path: string, read: SessionFileRead, resumedFrom: number): void {
    const sourceId = this.saveSource({
      path,
      kind: 'session',
      runner: read.runner,
      size: read.size,
      mtimeMs: read.mtimeMs,
      bytesRead: read.bytesConsumed,
      prefixHash: read.prefixHash,
      state: read.state,
      resumedFrom,
      report: read.report ? JSON.stringify(read.report) : null,
    });
    if (resumedFrom === 0) this.deleteSessionsOf.run(sourceId);
    for (const session of read.sessions) this.rows.writeSession(sourceId, session, resumedFrom > 0);
  }

  writeMaterialsSource(
    file: CatalogFile,
    kind: 'memory' | 'canvas',
    runner: string | null,
    canvas: IndexedCanvas | null,
    materials: MaterialRow[],
  ): void {
    const sourceId = this.saveSource({
      path: file.path,
      kind,
      runner,
      size: file.size,
      mtimeMs: file.mtimeMs,
      bytesRead: file.size,
      prefixHash: null,
      state: null,
      resumedFrom: 0,
      report: null,
    });
    this.deleteSessionsOf.run(sourceId);
    this.deleteMaterialsOf.run(sourceId);
    if (canvas) this.rows.writeSession(sourceId, canvas.session, false);
    for (const material of materials) this.insertMaterial.run({ sourceId, ...material });
  }

  private saveSource(source: {
    path: string;
    kind: SourceKind;
    runner: string | null;
    size: number;
    mtimeMs: number;
    bytesRead: number;
    prefixHash: string | null;
    state: string | null;
    resumedFrom: number;
    report: string | null;
  }): number {
    const row = this.upsertSource.get({
      path: source.path,
      kind: source.kind,
      runner: source.runner,
      size: source.size,
      mtimeMs: source.mtimeMs,
      bytesRead: source.bytesRead,
      prefixHash: source.prefixHash,
      full: source.resumedFrom > 0 ? 0 : 1,
      append: source.resumedFrom > 0 ? 1 : 0,
      from: source.resumedFrom,
      report: source.report,
      at: this.now(),
    }) as { id: number };
    if (source.state === null) this.deleteState.run(row.id);
    else this.upsertState.run(row.id, source.state);
    return row.id;
  }
}
