import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

/** The SQL migrations of the PostgreSQL engine, kept in the repository: `NNN-name.sql`, applied in order. */
export const PG_MIGRATIONS_DIRECTORY = join(import.meta.dirname, 'pg-migrations');

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export function readPgMigrations(directory = PG_MIGRATIONS_DIRECTORY): PgMigration[] {
  return readdirSync(directory)
    .flatMap((file) => {
      const parts = /^(\d{3})-([a-z0-9-]+)\.sql$/.exec(file);
      return parts
        ? [{ version: Number(parts[1]), name: parts[2]!, sql: readFileSync(join(directory, file), 'utf8') }]
        : [];
    })
    .sort((left, right) => left.version - right.version);
}

/**
 * Brings the database to the newest schema: the migrations not yet in `weft_schema_migrations` run in one
 * transaction, under an advisory lock so two machines migrating at once do it once. Returns the versions applied.
 */
export async function migratePostgres(client: pg.ClientBase, migrations = readPgMigrations()): Promise<number[]> {
  // Looked at first without writing: a person's read or write role (`weft db init`) may not create tables, and
  // needs nothing created when the schema is current.
  if (await upToDate(client, migrations)) return [];
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('weft-schema-migrations'))");
    await client.query(
      `CREATE TABLE IF NOT EXISTS weft_schema_migrations (
         version INTEGER PRIMARY KEY,
         name TEXT NOT NULL,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const applied = new Set(
      (await client.query<{ version: number }>('SELECT version FROM weft_schema_migrations')).rows.map(
        (row) => row.version,
      ),
    );
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      await client.query('INSERT INTO weft_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
    return pending.map((migration) => migration.version);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function upToDate(client: pg.ClientBase, migrations: readonly PgMigration[]): Promise<boolean> {
  const table = await client.query<{ present: boolean }>(
    "SELECT to_regclass('weft_schema_migrations') IS NOT NULL AS present",
  );
  if (!table.rows[0]?.present) return false;
  const applied = new Set(
    (await client.query<{ version: number }>('SELECT version FROM weft_schema_migrations')).rows.map(
      (row) => row.version,
    ),
  );
  return migrations.every((migration) => applied.has(migration.version));
}
