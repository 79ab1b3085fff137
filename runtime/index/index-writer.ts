import type { IndexedCanvas, MaterialRow } from './index-canvas.ts';
import { hasCjk } from './cjk-text.ts';
import type { IndexDatabase } from './open-index-database.ts';
import type { CatalogFile, SessionFileRead } from './session-catalog.ts';
import { SessionRowWriter } from './session-rows.ts';
import type { SourceKind } from './source-listing.ts';

/** The synchronous row writes of one update, with statements prepared once. */
export class IndexWriter {
  private readonly rows: SessionRowWriter;
  private readonly upsertSource;
  private readonly deleteSource;
  private readonly deleteSessionsOf;
  private readonly deleteMaterialsOf;
  private readonly insertMaterial;
  private readonly insertCjkText;
  private readonly selectState;
  private readonly upsertState;
  private readonly deleteState;
  private readonly setArchived;
  private readonly setDeleted;

  constructor(
    database: IndexDatabase,
    private readonly now: () => number,
  ) {
    this.rows = new SessionRowWriter(database);
    this.upsertSource = database.prepare(
      `INSERT INTO sources (path, kind, runner, size, mtime_ms, bytes_read, prefix_hash, full_reads, append_reads,
         last_read_from, report, indexed_at, archived_bytes, deleted_at)
       VALUES (@path, @kind, @runner, @size, @mtimeMs, @bytesRead, @prefixHash, @full, @append, @from, @report, @at,
         @archivedBytes, @deletedAt)
       ON CONFLICT (path) DO UPDATE SET kind = excluded.kind, runner = excluded.runner, size = excluded.size,
         mtime_ms = excluded.mtime_ms, bytes_read = excluded.bytes_read, prefix_hash = excluded.prefix_hash,
         full_reads = full_reads + excluded.full_reads,
         append_reads = append_reads + excluded.append_reads, last_read_from = excluded.last_read_from,
         report = excluded.report, indexed_at = excluded.indexed_at, archived_bytes = excluded.archived_bytes,
         deleted_at = excluded.deleted_at
       RETURNING id`,
    );
    this.deleteSource = database.prepare('DELETE FROM sources WHERE id = ?');
    this.setArchived = database.prepare('UPDATE sources SET archived_bytes = ? WHERE path = ?');
    this.setDeleted = database.prepare('UPDATE sources SET deleted_at = ? WHERE id = ?');
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
    this.insertCjkText = database.prepare("INSERT INTO cjk_texts (material_id, field, text) VALUES (?, 'material', ?)");
  }

  savedState(sourceId: number): string | null {
    return (this.selectState.get(sourceId) as { state: string | null } | undefined)?.state ?? null;
  }

  removeSource(id: number): void {
    this.deleteSource.run(id);
  }

  /** The file is gone but kept in the archive: its rows stay, marked "source deleted". */
  markDeleted(id: number): void {
    this.setDeleted.run(this.now(), id);
  }

  /** This many bytes of the file are now in the archive (0: none, e.g. its runner was switched off). */
  markArchived(path: string, bytes: number): void {
    this.setArchived.run(bytes, path);
  }

  /**
   * `resumedFrom` > 0: the rows already stored stay and the read's sessions are merged in.
   * `kept`: bytes of the file in the archive, and whether the read came from there (the source is gone).
   */
  writeSessionSource(
    path: string,
    read: SessionFileRead,
    resumedFrom: number,
    kept: { archivedBytes: number; fromArchive: boolean } = { archivedBytes: 0, fromArchive: false },
  ): void {
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
      archivedBytes: kept.archivedBytes,
      deletedAt: kept.fromArchive ? this.now() : null,
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
      archivedBytes: 0,
      deletedAt: null,
    });
    this.deleteSessionsOf.run(sourceId);
    this.deleteMaterialsOf.run(sourceId);
    if (canvas) this.rows.writeSession(sourceId, canvas.session, false);
    for (const material of materials) {
      const materialId = this.insertMaterial.run({ sourceId, ...material }).lastInsertRowid;
      const text = `${material.title}\n${material.text}`;
      if (hasCjk(text)) this.insertCjkText.run(materialId, text);
    }
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
    archivedBytes: number;
    deletedAt: number | null;
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
      archivedBytes: source.archivedBytes,
      deletedAt: source.deletedAt,
    }) as { id: number };
    if (source.state === null) this.deleteState.run(row.id);
    else this.upsertState.run(row.id, source.state);
    return row.id;
  }
}
