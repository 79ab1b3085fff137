import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDirectory } from '../fs/index.ts';

export type DossierDatabase = Database.Database;

/** How long a writer waits for another's transaction before it gives up (refused, never unlocked). */
export const DOSSIER_BUSY_MS = 10_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS dossier_versions (
  topic_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  written_at INTEGER NOT NULL,
  mode TEXT NOT NULL,
  model_id TEXT,
  body TEXT NOT NULL,            -- the Dossier (protocol/dossier.ts) as JSON
  dropped TEXT NOT NULL,         -- the sentences dropped for unknown citations (JSON array)
  turns_read INTEGER NOT NULL,
  facts_read INTEGER NOT NULL,
  PRIMARY KEY (topic_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS read_turns (
  topic_id TEXT NOT NULL,
  turn_key TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (topic_id, turn_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS facts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  topic_id TEXT,                 -- NULL: the general inbox
  text TEXT NOT NULL,
  turn_key TEXT,
  filed_at INTEGER NOT NULL,
  state TEXT NOT NULL,           -- 'pending' | 'consumed' | 'discarded'
  consumed_by INTEGER            -- the dossier version that read it
);
CREATE INDEX IF NOT EXISTS facts_pending ON facts(state, topic_id);
CREATE TABLE IF NOT EXISTS sentence_proposals (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  topic_id TEXT NOT NULL,
  section TEXT NOT NULL,
  text TEXT NOT NULL,
  citations TEXT NOT NULL,       -- JSON array of turn keys
  proposed_at INTEGER NOT NULL,
  state TEXT NOT NULL            -- 'pending' | 'accepted' | 'rejected'
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  record TEXT NOT NULL           -- one EventRecord, hash-chained to the row before
);
`;

/** `$WEFT_HOME/memory/dossiers.sqlite`, 0600, WAL: every write is one IMMEDIATE transaction (the lock). */
export function dossierDatabasePath(weftHome: string): string {
  return join(weftHome, 'memory', 'dossiers.sqlite');
}

export function openDossierDatabase(path: string): DossierDatabase {
  ensurePrivateDirectory(join(path, '..'));
  // Create the file 0600 first: SQLite gives its -wal and -shm files the main file's permissions.
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  const database = new Database(path, { timeout: DOSSIER_BUSY_MS });
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec(SCHEMA);
  return database;
}
