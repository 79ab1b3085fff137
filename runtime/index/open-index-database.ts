import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { IndexError } from './index-error.ts';
import {
  INDEX_FTS_TABLES,
  INDEX_SCHEMA,
  INDEX_SCHEMA_VERSION,
  INDEX_TRIGGER_NAMES,
  INDEX_TRIGGERS,
} from './index-schema.ts';
import { ensurePrivateDirectory } from '../fs/index.ts';

export type IndexDatabase = Database.Database;

export interface OpenedIndex {
  database: IndexDatabase;
  /** True when the file was created now (first run, or rebuilt after a schema version change). */
  created: boolean;
}

const SIDE_FILES = ['-wal', '-shm', '-journal'];

/**
 * Opens (creating if needed) the index at `path`. A database of another schema version, or one that
 * is not a Weft index at all, is replaced by an empty one of the current version.
 */
export function openIndexDatabase(path: string): OpenedIndex {
  ensurePrivateDirectory(dirname(path));
  if (existsSync(path)) {
    // SQLite gives the -wal and -shm files the main file's mode: a file left looser would leak through them.
    if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
    const database = tryOpen(path);
    if (database && readSchemaVersion(database) === INDEX_SCHEMA_VERSION) {
      configure(database);
      return { database, created: false };
    }
    database?.close();
    removeDatabaseFiles(path);
  }
  return { database: createDatabase(path), created: true };
}

/** Builds a fresh database at a temporary name beside `path`; `commitFreshDatabase` moves it in place. */
export function createFreshDatabase(path: string): { database: IndexDatabase; temporaryPath: string } {
  ensurePrivateDirectory(dirname(path));
  const temporaryPath = `${path}.building-${process.pid}`;
  removeDatabaseFiles(temporaryPath);
  const database = createDatabase(temporaryPath);
  // Nobody reads this file until it is renamed into place, so it needs no crash safety while it is built.
  database.pragma('journal_mode = MEMORY');
  database.pragma('synchronous = OFF');
  // Full-text tables are filled once from their content tables in `commitFreshDatabase`, not row by row.
  for (const name of INDEX_TRIGGER_NAMES) database.exec(`DROP TRIGGER ${name}`);
  return { database, temporaryPath };
}

/** Closes the fresh database and renames it over `path` (atomic on one file system). */
export function commitFreshDatabase(database: IndexDatabase, temporaryPath: string, path: string): void {
  database
    .transaction(() => {
      for (const table of INDEX_FTS_TABLES) database.exec(`INSERT INTO ${table}(${table}) VALUES ('rebuild')`);
      database.exec(INDEX_TRIGGERS);
    })
    .immediate();
  database.pragma('journal_mode = WAL');
  database.pragma('wal_checkpoint(TRUNCATE)');
  database.close();
  for (const suffix of SIDE_FILES) rmSync(`${temporaryPath}${suffix}`, { force: true });
  for (const suffix of SIDE_FILES) rmSync(`${path}${suffix}`, { force: true });
  renameSync(temporaryPath, path);
}

export function removeDatabaseFiles(path: string): void {
  rmSync(path, { force: true });
  for (const suffix of SIDE_FILES) rmSync(`${path}${suffix}`, { force: true });
}

function createDatabase(path: string): IndexDatabase {
  // Create the file 0600 first: SQLite gives its -wal and -shm files the main file's permissions.
  closeSync(openSync(path, 'a', 0o600));
  const database = new Database(path);
  configure(database);
  database.exec(INDEX_SCHEMA);
  database.prepare('INSERT INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(INDEX_SCHEMA_VERSION));
  return database;
}

function tryOpen(path: string): IndexDatabase | null {
  try {
    return new Database(path, { fileMustExist: true });
  } catch (error) {
    throw new IndexError('index-open-failed', `cannot open the index at ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function readSchemaVersion(database: IndexDatabase): number | null {
  try {
    const row = database.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
      { value: string } | undefined;
    return row ? Number(row.value) : null;
  } catch {
    return null;
  }
}

function configure(database: IndexDatabase): void {
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('cache_size = -32000');
  database.pragma('temp_store = MEMORY');
}
