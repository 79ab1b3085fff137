import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../tests/support/postgres-server.ts';
import { migratePostgres, PG_MIGRATIONS_DIRECTORY, readPgMigrations } from './migrate-postgres.ts';

let server: PostgresServer;
const folders: string[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(() => {
  server?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function connected<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The repository's migrations plus one more, as the next schema version will add one. */
function withNextMigration(sql: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'weft-pg-migrations-'));
  folders.push(folder);
  copyFileSync(join(PG_MIGRATIONS_DIRECTORY, '001-why-index.sql'), join(folder, '001-why-index.sql'));
  writeFileSync(join(folder, '002-machines.sql'), sql);
  return folder;
}

const tables = (client: pg.Client) =>
  client
    .query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    .then((result) => result.rows.map((row) => row.name));

describe('the PostgreSQL migrations', () => {
  it('build the schema from an empty database once, recorded by version, even with two machines at once', async () => {
    const url = await server.createDatabase('from_empty');
    const [first, second] = await Promise.all([
      connected(url, (client) => migratePostgres(client)),
      connected(url, (client) => migratePostgres(client)),
    ]);
    const versions = readPgMigrations().map((migration) => migration.version);
    expect([first, second].sort()).toEqual([[], versions]);
    await connected(url, async (client) => {
      expect(await tables(client)).toEqual([
        'cjk_texts',
        'materials',
        'meta',
        'papers',
        'sessions',
        'sources',
        'touches',
        'turns',
        'urls',
        'weft_grants',
        'weft_people',
        'weft_schema_migrations',
      ]);
      const applied = await client.query('SELECT version, name FROM weft_schema_migrations ORDER BY version');
      expect(applied.rows).toEqual(
        readPgMigrations().map((migration) => ({ version: migration.version, name: migration.name })),
      );
      expect(applied.rows[0]).toEqual({ version: 1, name: 'why-index' });
      expect(await migratePostgres(client)).toEqual([]);
      // The trigram indexes find serves its LIKEs with.
      const indexes = await client.query<{ name: string }>(
        "SELECT indexname AS name FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%' ORDER BY 1",
      );
      expect(indexes.rows.map((row) => row.name)).toEqual([
        'cjk_texts_lower',
        'materials_text_words',
        'materials_title_words',
        'turns_assistant_words',
        'turns_user_words',
      ]);
    });
  });

  it('bring a database at the previous version forward, keeping its rows', async () => {
    const url = await server.createDatabase('from_previous');
    const next = readPgMigrations(withNextMigration('ALTER TABLE sources ADD COLUMN machine TEXT;'));
    await connected(url, async (client) => {
      expect(await migratePostgres(client, next.slice(0, 1))).toEqual([1]);
      await client.query(
        "INSERT INTO sources (id, path, kind, size, mtime_ms, bytes_read, indexed_at) VALUES (1, '/a.jsonl', 'session', 3, 1, 3, 1)",
      );
      expect(await migratePostgres(client, next)).toEqual([2]);
      const rows = await client.query('SELECT path, machine FROM sources');
      expect(rows.rows).toEqual([{ path: '/a.jsonl', machine: null }]);
      const versions = await client.query('SELECT version FROM weft_schema_migrations ORDER BY version');
      expect(versions.rows).toEqual([{ version: 1 }, { version: 2 }]);
    });
  });

  it('leave nothing half done when a migration fails', async () => {
    const url = await server.createDatabase('failing');
    const broken = readPgMigrations(withNextMigration('CREATE TABLE machines (id TEXT); SELECT no_such_function();'));
    await connected(url, async (client) => {
      await expect(migratePostgres(client, broken)).rejects.toThrow(/no_such_function/);
      // Not even 001 stayed: the pending migrations run in one transaction.
      expect(await tables(client)).toEqual([]);
      expect(await migratePostgres(client, broken.slice(0, 1))).toEqual([1]);
    });
  });
});
