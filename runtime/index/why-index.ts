import { readdirSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { IndexError } from './index-error.ts';
import { indexTurnLookup } from './put-aside-turns.ts';
import { checkRecalled, recallLookupRequest } from './recall-checked.ts';
import { createAtlasCatalog } from './atlas-catalog.ts';
import { findPhrase, type FindHit, type FindOptions } from './find-query.ts';
import {
  readIndexStatus,
  readSourceRecords,
  type IndexStatus,
  type SourceReadRecord,
  type StatusContext,
} from './index-status.ts';
import {
  commitFreshDatabase,
  createFreshDatabase,
  openIndexDatabase,
  removeDatabaseFiles,
  type IndexDatabase,
} from './open-index-database.ts';
import { recallTurn, type RecalledTurn, type RecallRequest } from './recall-query.ts';
import type { SessionCatalog } from './session-catalog.ts';
import { archiveKeeps, readArchiveSettings } from './archive-settings.ts';
import { ARCHIVE_RUNNERS, SessionArchive, type ArchiveEntry } from './session-archive.ts';
import { readLastVerification } from './archive-verify.ts';
import { exportArchivedCopy, resolveExportFolder, type ExportedCopy } from './archive-export.ts';
import { updateIndex, type IndexProgress, type UpdateSummary } from './update-index.ts';
import {
  canvasesDirectory,
  indexDatabasePath,
  readPutAsides,
  realPathOfNearest,
  resolveWeftHome,
} from '../fs/index.ts';
import { hasWhyHistory, queryWhy, type WhyOptions, type WhyResult } from './why-query.ts';
import { resolveWhyTargets, type WhyTargetOptions } from './why-target.ts';

export interface WhyIndexOptions {
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Where sessions and memory files come from; the atlas over the configured roots by default. */
  catalog?: SessionCatalog;
  now?: () => number;
}

/**
 * The why index: one SQLite file under `WEFT_HOME`, fed by the session catalog and the canvas records.
 * The CLI and the MCP server both answer through this class, so their results are the same.
 */
export class WhyIndex {
  readonly weftHome: string;
  readonly databasePath: string;
  readonly catalog: SessionCatalog;
  /** Compressed copies of the session files indexed (`$WEFT_HOME/archive`), while preservation is on. */
  readonly archive: SessionArchive;
  /** True when the database was created by this open (first run or schema change): a full read follows. */
  readonly createdNow: boolean;
  private databaseHandle: IndexDatabase;
  private readonly now: () => number;
  private builtOnce = false;
  /** Device and inode of the file the handle has open. */
  private openedFile: string | null;

  private constructor(weftHome: string, catalog: SessionCatalog, now: () => number) {
    this.weftHome = weftHome;
    this.databasePath = indexDatabasePath(weftHome);
    this.catalog = catalog;
    this.now = now;
    this.archive = new SessionArchive(weftHome, catalog.roots, now);
    const opened = openIndexDatabase(this.databasePath);
    this.databaseHandle = opened.database;
    this.openedFile = fileIdentity(this.databasePath);
    this.createdNow = opened.created;
  }

  /**
   * Another process swapped in a rebuilt index (`weft index --full`) or purged it: this handle would go on
   * answering from, and writing into, the unlinked old file. Follow the path to the file there now.
   */
  private followReplacement(): void {
    if (fileIdentity(this.databasePath) === this.openedFile) return;
    this.databaseHandle.close();
    this.databaseHandle = openIndexDatabase(this.databasePath).database;
    this.openedFile = fileIdentity(this.databasePath);
    this.builtOnce = false;
  }

  static open(options: WhyIndexOptions = {}): WhyIndex {
    const env = options.env ?? process.env;
    const home = options.home ?? homedir();
    const weftHome = resolveWeftHome(env, home);
    const catalog = options.catalog ?? createAtlasCatalog({ env, home });
    // Session roots are never written (C18): an index inside one would be.
    // Real paths too: a WEFT_HOME reached through a symlink into a root would be written all the same.
    const inside = catalog.roots.find(
      (root) =>
        isWithin(weftHome, resolve(root)) || isWithin(realPathOfNearest(weftHome), realPathOfNearest(resolve(root))),
    );
    if (inside) throw new IndexError('weft-home-unsafe', `WEFT_HOME ${weftHome} is inside the session root ${inside}`);
    return new WhyIndex(weftHome, catalog, options.now ?? Date.now);
  }

  get database(): IndexDatabase {
    return this.databaseHandle;
  }

  /** The cheap stat pass, then whatever moved is read (appended files from where they stopped). */
  refresh(onProgress?: (progress: IndexProgress) => void): Promise<UpdateSummary> {
    this.followReplacement();
    // Nothing indexed yet (first use, or a schema change): the first refresh is a full index.
    if (!this.builtOnce && this.isEmpty()) return this.index(onProgress);
    return this.update(this.databaseHandle, false, onProgress);
  }

  /**
   * `weft index`: the refresh, then a walk for memory files (agent homes, `WEFT_MEMORY_ROOTS`, the sessions'
   * working directories) which queries skip because it costs more than a stat pass.
   */
  async index(onProgress?: (progress: IndexProgress) => void): Promise<UpdateSummary> {
    this.followReplacement();
    // An empty index is built beside and swapped in: faster (no journal) and never half-visible.
    this.builtOnce = true;
    if (this.isEmpty()) return this.rebuild(onProgress);
    const sessions = await this.update(this.databaseHandle, false, onProgress);
    const memory = await this.update(this.databaseHandle, true, onProgress);
    return mergeSummaries(sessions, memory);
  }

  /** Reads everything again into a fresh database, then swaps it in atomically. */
  async rebuild(onProgress?: (progress: IndexProgress) => void): Promise<UpdateSummary> {
    const { database, temporaryPath } = createFreshDatabase(this.databasePath);
    try {
      const sessions = await this.update(database, false, onProgress);
      const memory = await this.update(database, true, onProgress);
      this.databaseHandle.close();
      commitFreshDatabase(database, temporaryPath, this.databasePath);
      this.databaseHandle = openIndexDatabase(this.databasePath).database;
      this.openedFile = fileIdentity(this.databasePath);
      return mergeSummaries(sessions, memory);
    } catch (error) {
      if (database.open) database.close();
      removeDatabaseFiles(temporaryPath);
      throw error;
    }
  }

  private isEmpty(): boolean {
    return this.databaseHandle.prepare('SELECT 1 FROM sources LIMIT 1').get() === undefined;
  }

  private update(
    database: IndexDatabase,
    discoverMemory: boolean,
    onProgress?: (progress: IndexProgress) => void,
  ): Promise<UpdateSummary> {
    // Read at every update: a change made in the app's Settings reaches the CLI's next query.
    const settings = readArchiveSettings(this.weftHome);
    return updateIndex(database, this.catalog, {
      canvasesDirectory: canvasesDirectory(this.weftHome),
      discoverMemory,
      archive: { store: this.archive, keeps: (runner) => archiveKeeps(settings, runner) },
      ...(onProgress ? { onProgress } : {}),
      now: this.now,
    });
  }

  /** Turns whose content is put aside are left out and counted (`putAside`), as read-only turns are. */
  why(input: string, options: WhyTargetOptions & WhyOptions): WhyResult {
    const { putAside } = this.turnLookup();
    return queryWhy(this.databaseHandle, resolveWhyTargets(input, options), { ...options, putAside });
  }

  /**
   * Issue 29.2: what the index's read paths leave out, read now (tombstones and canvas records). The team index
   * (PostgreSQL) leaves out the same turns through it.
   */
  turnLookup() {
    return indexTurnLookup(this.databaseHandle, canvasesDirectory(this.weftHome), readPutAsides(this.weftHome));
  }

  hasHistory(input: string, options: WhyTargetOptions): boolean {
    return hasWhyHistory(this.databaseHandle, resolveWhyTargets(input, options));
  }

  /** Every working directory a session or a turn recorded (what a relative path in the app may be relative to). */
  workingDirectories(): string[] {
    const rows = this.databaseHandle
      .prepare(
        `SELECT cwd FROM sessions WHERE cwd IS NOT NULL UNION SELECT cwd FROM turns WHERE cwd IS NOT NULL ORDER BY cwd`,
      )
      .all() as { cwd: string }[];
    return rows.map((row) => row.cwd);
  }

  /** Hits on turns whose content is put aside are left out; more rows are read until `limit` others are found. */
  find(phrase: string, options: FindOptions = {}): FindHit[] {
    const { putAside } = this.turnLookup();
    const limit = options.limit ?? 20;
    for (let read = limit; ; read *= 2) {
      const hits = findPhrase(this.databaseHandle, phrase, { ...options, limit: read });
      const kept = hits.filter((hit) => !putAside(hit.turnKey));
      if (kept.length >= limit || hits.length < read) return kept.slice(0, limit);
    }
  }

  /**
   * A canvas turn only while its node is live on the canvas record now, and no turn whose content is put aside
   * (the CLI's `recall`, MCP's `recall_turn`). A versioned key (`canvas:c#n@v`, what topic labels and dossiers
   * cite) answers with that version's question and answer, read from the record, while the version is kept.
   */
  recall(request: RecallRequest): RecalledTurn {
    const { request: read, cited } = recallLookupRequest(request);
    return checkRecalled(
      recallTurn(this.databaseHandle, read),
      cited,
      this.turnLookup(),
      canvasesDirectory(this.weftHome),
    );
  }

  /**
   * The archived copies of a session: `session` is its id (a unique prefix is enough) or its file's path. Throws
   * `turn-not-found` when no indexed session matches, `archive-missing` when its files have no copy.
   */
  archivedCopies(session: string): ArchiveEntry[] {
    const rows = this.databaseHandle
      .prepare(
        `SELECT DISTINCT s.session_id AS sessionId, s.runner AS runner, src.path AS path FROM sessions s
         JOIN sources src ON src.id = s.source_id
         WHERE s.runner <> 'canvas' AND (src.path = ? OR substr(s.session_id, 1, length(?)) = ?)`,
      )
      .all(session, session, session) as { sessionId: string; runner: string; path: string }[];
    const ids = new Set(rows.map((row) => row.sessionId));
    if (rows.length === 0) throw new IndexError('turn-not-found', `no indexed session ${session}`);
    if (ids.size > 1 && !rows.some((row) => row.path === session))
      throw new IndexError('turn-not-found', `session id ${session} is ambiguous; give more of it`);
    const entries = rows.flatMap((row) => this.archive.entry(row.path, row.runner) ?? []);
    if (entries.length === 0) throw new IndexError('archive-missing', `no archived copy of session ${session}`);
    return entries;
  }

  /**
   * Writes the original bytes of a session's archived copies into `folder` (`weft archive export`): refused
   * inside a session root or `WEFT_HOME`, never over an existing file, each copy checked as it is written.
   */
  async exportSession(session: string, folder: string): Promise<ExportedCopy[]> {
    const entries = this.archivedCopies(session);
    const target = await resolveExportFolder(folder, { sessionRoots: this.catalog.roots, weftHome: this.weftHome });
    const written: ExportedCopy[] = [];
    for (const entry of entries) written.push(await exportArchivedCopy(entry, this.archive.copyPath(entry), target));
    return written;
  }

  /** `perFile`: include each session file's parse report (`weft status --json`). */
  status(options: { perFile?: boolean } = {}): IndexStatus {
    return readIndexStatus(this.databaseHandle, { ...this.statusContext(options), databasePath: this.databasePath });
  }

  /** What a status says of this machine (home, roots, archive), whichever engine counts the rows. */
  statusContext(options: { perFile?: boolean } = {}): StatusContext {
    const settings = readArchiveSettings(this.weftHome);
    return {
      weftHome: this.weftHome,
      roots: this.catalog.roots,
      perFile: options.perFile ?? false,
      archive: {
        enabled: settings.enabled,
        runners: settings.enabled ? ARCHIVE_RUNNERS.filter((runner) => settings.runners[runner]) : [],
        directory: this.archive.directory,
        ...this.archive.usage(),
        lastVerification: readLastVerification(this.archive.directory),
      },
    };
  }

  sourceRecords(): SourceReadRecord[] {
    return readSourceRecords(this.databaseHandle);
  }

  close(): void {
    if (this.databaseHandle.open) this.databaseHandle.close();
  }
}

/** Deletes the index database (and its WAL files) under WEFT_HOME; canvases and anything else stay. */
export function purgeIndex(options: { env?: NodeJS.ProcessEnv; home?: string } = {}): { removed: string } {
  const weftHome = resolveWeftHome(options.env ?? process.env, options.home ?? homedir());
  const path = indexDatabasePath(weftHome);
  removeDatabaseFiles(path);
  // A build interrupted before its rename leaves `index.db.building-<pid>` beside it.
  try {
    for (const name of readdirSync(weftHome)) {
      if (name.startsWith('index.db.building-')) rmSync(join(weftHome, name), { force: true });
    }
  } catch {
    // No WEFT_HOME yet: nothing to purge.
  }
  return { removed: path };
}

/**
 * Drops the archive of session files under WEFT_HOME (all of it, or one runner's). The rows of sessions whose
 * file is gone leave the index at its next update (or with the index, when `weft purge` drops that too).
 */
export function purgeArchive(options: { env?: NodeJS.ProcessEnv; home?: string; runner?: string } = {}): {
  removed: string;
} {
  const weftHome = resolveWeftHome(options.env ?? process.env, options.home ?? homedir());
  const archive = new SessionArchive(weftHome, [], Date.now);
  archive.drop(options.runner);
  return { removed: options.runner ? join(archive.directory, options.runner) : archive.directory };
}

function mergeSummaries(first: UpdateSummary, second: UpdateSummary): UpdateSummary {
  return {
    files: second.files,
    fullReads: first.fullReads + second.fullReads,
    appendReads: first.appendReads + second.appendReads,
    removed: first.removed + second.removed,
    sourceDeleted: first.sourceDeleted + second.sourceDeleted,
    archived: first.archived + second.archived,
    // Both passes list session files: a file that failed in both is one failure.
    failed: [
      ...first.failed,
      ...second.failed.filter((failure) => !first.failed.some((seen) => seen.path === failure.path)),
    ],
    bytesRead: first.bytesRead + second.bytesRead,
    turnsWritten: first.turnsWritten + second.turnsWritten,
    durationMs: first.durationMs + second.durationMs,
  };
}

function fileIdentity(path: string): string | null {
  try {
    const info = statSync(path);
    return `${info.dev}:${info.ino}`;
  } catch {
    return null;
  }
}

function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
