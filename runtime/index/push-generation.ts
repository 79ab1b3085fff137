import { randomUUID } from 'node:crypto';
import type { IndexDatabase } from './open-index-database.ts';
import { SOURCE, type Row } from './push-columns.ts';

/**
 * Which local database the ids come from: a rebuilt index (`--full`, a schema change, `weft purge`) is a new file
 * numbering its rows anew, so its sources are pushed whole once.
 */
export function localGeneration(sqlite: IndexDatabase): string {
  sqlite.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES ('push_generation', ?)").run(randomUUID());
  return (sqlite.prepare("SELECT value FROM meta WHERE key = 'push_generation'").get() as { value: string }).value;
}

/** The held source row came from this local database's row (same generation, same local id). */
export function sameLocalRow(held: Row, local: Row, generation: string): boolean {
  return held.generation === generation && Number(held.local_id) === local.id;
}

/** The team index holds the source at its local state: same local row, same size, reads and counters. */
export function heldAsLocal(held: Row, local: Row, generation: string): boolean {
  const state = (row: Row) => JSON.stringify(SOURCE.map(([name]) => row[name]));
  return sameLocalRow(held, local, generation) && state(normalised(held)) === state(local);
}

/** A held source row with its numbers as SQLite gives them (BIGINT arrives as a string without the type parser). */
function normalised(row: Row): Row {
  const out: Row = { ...row };
  for (const [name, type] of SOURCE)
    if (out[name] !== null && (type === 'bigint' || type === 'integer' || type === 'float8'))
      out[name] = Number(out[name]);
  return out;
}
