import type pg from 'pg';
import { fts5Words } from './fts5-words.ts';
import type { IndexDatabase } from './open-index-database.ts';

type Column = readonly [name: string, type: string];

/** Each table copied, its columns and their PostgreSQL array types, parents before children. */
const TABLES: readonly {
  table: string;
  columns: readonly Column[];
  words?: readonly [from: string, to: string][];
  order?: string;
}[] = [
  // WITHOUT ROWID in SQLite: ordered by its key.
  {
    table: 'meta',
    columns: [
      ['key', 'text'],
      ['value', 'text'],
    ],
    order: 'key',
  },
  {
    table: 'sources',
    columns: [
      ['id', 'bigint'],
      ['path', 'text'],
      ['kind', 'text'],
      ['runner', 'text'],
      ['size', 'bigint'],
      ['mtime_ms', 'float8'],
      ['bytes_read', 'bigint'],
      ['prefix_hash', 'text'],
      ['full_reads', 'integer'],
      ['append_reads', 'integer'],
      ['last_read_from', 'bigint'],
      ['report', 'text'],
      ['indexed_at', 'bigint'],
      ['archived_bytes', 'bigint'],
      ['deleted_at', 'bigint'],
    ],
  },
  {
    table: 'sessions',
    columns: [
      ['id', 'bigint'],
      ['source_id', 'bigint'],
      ['runner', 'text'],
      ['session_id', 'text'],
      ['title', 'text'],
      ['cwd', 'text'],
      ['git_branch', 'text'],
      ['started_at', 'bigint'],
      ['ended_at', 'bigint'],
      ['parent_session_id', 'text'],
      ['parent_turn_key', 'text'],
      ['is_subagent', 'integer'],
    ],
  },
  {
    table: 'turns',
    columns: [
      ['id', 'bigint'],
      ['turn_key', 'text'],
      ['session_row', 'bigint'],
      ['number', 'integer'],
      ['user_text', 'text'],
      ['assistant_text', 'text'],
      ['cwd', 'text'],
      ['at', 'bigint'],
      ['model', 'text'],
      ['steps', 'text'],
      ['mirrors', 'text'],
      ['status', 'text'],
    ],
    words: [
      ['user_text', 'user_words'],
      ['assistant_text', 'assistant_words'],
    ],
  },
  {
    table: 'touches',
    columns: [
      ['turn_id', 'bigint'],
      ['path', 'text'],
      ['name', 'text'],
      ['op', 'text'],
    ],
  },
  {
    table: 'urls',
    columns: [
      ['turn_id', 'bigint'],
      ['url', 'text'],
    ],
  },
  {
    table: 'papers',
    columns: [
      ['turn_id', 'bigint'],
      ['kind', 'text'],
      ['identifier', 'text'],
    ],
  },
  {
    table: 'materials',
    columns: [
      ['id', 'bigint'],
      ['source_id', 'bigint'],
      ['kind', 'text'],
      ['runner', 'text'],
      ['session_id', 'text'],
      ['title', 'text'],
      ['text', 'text'],
      ['turn_key', 'text'],
      ['cwd', 'text'],
      ['at', 'bigint'],
    ],
    words: [
      ['title', 'title_words'],
      ['text', 'text_words'],
    ],
  },
  {
    table: 'cjk_texts',
    columns: [
      ['id', 'bigint'],
      ['turn_id', 'bigint'],
      ['material_id', 'bigint'],
      ['field', 'text'],
      ['text', 'text'],
    ],
  },
];

/** Rows sent per INSERT: one round trip each, small enough to keep the arrays' memory flat. */
const BATCH_ROWS = 2000;

export interface CopySummary {
  rows: Record<string, number>;
  durationMs: number;
}

/**
 * Copies this machine's SQLite index into PostgreSQL, replacing what the database held, in one transaction:
 * readers see the old index or the new one, never half of it. (Append-aware pushes from several machines are the
 * next step; this is one machine's index, its ids kept, so both engines order ties alike.)
 */
export async function copyIndexToPostgres(sqlite: IndexDatabase, client: pg.ClientBase): Promise<CopySummary> {
  const started = performance.now();
  const rows: Record<string, number> = {};
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('weft-index-copy'))");
    await client.query(`TRUNCATE ${TABLES.map((each) => each.table).join(', ')}`);
    for (const { table, columns, words = [], order = 'rowid' } of TABLES) {
      const names = columns.map(([name]) => name);
      const all: Column[] = [...columns, ...words.map(([, to]) => [to, 'text'] as const)];
      const insert = `INSERT INTO ${table} (${all.map(([name]) => name).join(', ')})
        SELECT * FROM unnest(${all.map(([, type], at) => `$${at + 1}::${type}[]`).join(', ')})`;
      const select = sqlite.prepare(`SELECT ${names.join(', ')} FROM ${table} ORDER BY ${order}`).raw(true);
      let batch: unknown[][] = [];
      let count = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const arrays = all.map((_, at) => batch.map((row) => row[at]));
        await client.query(insert, arrays);
        count += batch.length;
        batch = [];
      };
      for (const row of select.iterate() as Iterable<unknown[]>) {
        for (const [from] of words) row.push(fts5Words(row[names.indexOf(from)] as string));
        batch.push(row);
        if (batch.length >= BATCH_ROWS) await flush();
      }
      await flush();
      rows[table] = count;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  return { rows, durationMs: performance.now() - started };
}
