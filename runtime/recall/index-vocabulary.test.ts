import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndexDatabase, type IndexDatabase } from '../index/index.ts';
import { indexVocabulary } from './index-vocabulary.ts';

let directory: string;
let database: IndexDatabase;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-recall-vocabulary-'));
  database = openIndexDatabase(join(directory, 'index.db')).database;
  database
    .prepare(
      `INSERT INTO sources (id, path, kind, runner, size, mtime_ms, bytes_read, indexed_at)
       VALUES (1, '/sessions/a.jsonl', 'session', 'claude', 0, 0, 0, 0)`,
    )
    .run();
  database
    .prepare(
      `INSERT INTO sessions (id, source_id, runner, session_id, title, is_subagent) VALUES (1, 1, 'claude', 's1', 'A', 0)`,
    )
    .run();
  addTurn(database, 1, 'how is the parser tested?');
});

afterEach(() => {
  database.close();
  rmSync(directory, { recursive: true, force: true });
});

function addTurn(into: IndexDatabase, id: number, question: string): void {
  into
    .prepare(
      `INSERT INTO turns (id, turn_key, session_row, number, user_text, assistant_text, steps)
       VALUES (?, ?, 1, ?, ?, 'done', '[]')`,
    )
    .run(id, `claude:s1#${id}`, id, question);
}

describe('index vocabulary across plans', () => {
  it('sees a word the index gained since the last plan, written on this connection', () => {
    expect(indexVocabulary(database).frequency('lexer')).toBe(0);
    expect(indexVocabulary(database).neighbours('lexar')).toEqual([]);
    addTurn(database, 2, 'and the lexer?');
    const vocabulary = indexVocabulary(database);
    expect(vocabulary.frequency('lexer')).toBe(1);
    expect(vocabulary.neighbours('lexar')).toEqual(['lexer']);
  });

  it('sees a word another connection wrote (the indexer may hold its own)', () => {
    expect(indexVocabulary(database).frequency('parser')).toBe(1);
    expect(indexVocabulary(database).neighbours('parsr')).toEqual(['parser']);
    const writer = new Database(join(directory, 'index.db'));
    try {
      addTurn(writer, 2, 'the parser again, and the parsed tree');
    } finally {
      writer.close();
    }
    const vocabulary = indexVocabulary(database);
    expect(vocabulary.frequency('parser')).toBe(2);
    expect(vocabulary.neighbours('parsr')).toEqual(['parsed', 'parser']);
  });
});
