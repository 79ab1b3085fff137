import type { Statement } from 'better-sqlite3';
import type { IndexDatabase } from '../index/index.ts';

/** Prepared statements per connection: a plan runs on every keystroke of the preview, and preparing cost 1–2 ms. */
const prepared = new WeakMap<IndexDatabase, Map<string, Statement>>();

/** The connection's statement for `sql` (plucking its first column when asked), prepared once. */
export function recallStatement(database: IndexDatabase, sql: string, options: { pluck?: boolean } = {}): Statement {
  let statements = prepared.get(database);
  if (!statements) {
    statements = new Map();
    prepared.set(database, statements);
  }
  const key = `${options.pluck ? 'pluck' : 'rows'}:${sql}`;
  let statement = statements.get(key);
  if (!statement) {
    statement = options.pluck ? database.prepare(sql).pluck() : database.prepare(sql);
    statements.set(key, statement);
  }
  return statement;
}
