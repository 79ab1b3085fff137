import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../tests/support/postgres-server.ts';
import { migratePostgres, PG_MIGRATIONS_DIRECTORY, readPgMigrations } from './migrate-postgres.ts';
import { pushMemoryToPostgres } from './push-memory-to-postgres.ts';
import { grantProject, initTeamDatabase } from './team-roles.ts';

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
        'dossier_citations',
        'dossier_sentences',
        'dossier_versions',
        'machines',
        'materials',
        'memory_pushes',
        'meta',
        'papers',
        'sessions',
        'sources',
        'topic_labels',
        'topics',
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
      // The indexes find serves its LIKEs with: word lists (005), trigrams for CJK substrings; topics' labels (004).
      const indexes = await client.query<{ name: string }>(
        "SELECT indexname AS name FROM pg_indexes WHERE indexdef LIKE '%USING gin%' ORDER BY 1",
      );
      expect(indexes.rows.map((row) => row.name)).toEqual([
        'cjk_texts_lower',
        'materials_text_word_list',
        'materials_title_word_list',
        'topic_labels_by_topic',
        'turns_assistant_word_list',
        'turns_user_word_list',
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

  it('002 brings a database copied at 001 forward: its rows kept as the unknown machine, keys machine-scoped', async () => {
    const url = await server.createDatabase('from_001');
    await connected(url, async (client) => {
      expect(await migratePostgres(client, readPgMigrations().slice(0, 1))).toEqual([1]);
      await client.query(
        "INSERT INTO sources (id, path, kind, size, mtime_ms, bytes_read, indexed_at) VALUES (7, '/a.jsonl', 'session', 3, 1, 3, 5)",
      );
      await client.query(
        "INSERT INTO sessions (id, source_id, runner, session_id, title, is_subagent) VALUES (7, 7, 'claude-code', 's1', 'T', 0)",
      );
      await client.query(
        `INSERT INTO turns (id, turn_key, session_row, number, user_text, assistant_text, steps, user_words, assistant_words)
         VALUES (9, 'claude-code:s1#1', 7, 1, 'q', 'a', '[]', ' q ', ' a ')`,
      );
      expect(await migratePostgres(client, readPgMigrations().slice(0, 2))).toEqual([2]);
      const kept = await client.query('SELECT id, path, machine, local_id FROM sources');
      expect(kept.rows).toEqual([{ id: '7', path: '/a.jsonl', machine: '', local_id: '7' }]);
      const unknown = await client.query('SELECT machine, first_push_at FROM machines');
      expect(unknown.rows).toEqual([{ machine: '', first_push_at: '5' }]);
      // The same path and turn key from another machine is another row; the server numbers it above the old ids.
      await client.query("INSERT INTO machines VALUES ('m2', 'lab', 'ana', 1, 1)");
      const source = await client.query<{ id: string }>(
        `INSERT INTO sources (machine, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at)
         VALUES ('m2', 1, '/a.jsonl', 'session', 3, 1, 3, 5) RETURNING id`,
      );
      expect(Number(source.rows[0]!.id)).toBeGreaterThan(7);
      const session = await client.query<{ id: string }>(
        `INSERT INTO sessions (machine, local_id, source_id, runner, session_id, title, is_subagent)
         VALUES ('m2', 1, $1, 'claude-code', 's1', 'T', 0) RETURNING id`,
        [source.rows[0]!.id],
      );
      const turn = await client.query<{ id: string }>(
        `INSERT INTO turns (machine, local_id, turn_key, session_row, number, user_text, assistant_text, steps,
           user_words, assistant_words) VALUES ('m2', 1, 'claude-code:s1#1', $1, 1, 'q', 'a', '[]', ' q ', ' a ')
         RETURNING id`,
        [session.rows[0]!.id],
      );
      expect(Number(turn.rows[0]!.id)).toBeGreaterThan(9);
      // Within one machine the keys stay unique.
      await expect(
        client.query(
          "INSERT INTO sources (machine, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at) VALUES ('m2', 2, '/a.jsonl', 'session', 3, 1, 3, 5)",
        ),
      ).rejects.toThrow(/sources_machine_path/);
      // A source's machine must be one the machines table knows.
      await expect(
        client.query(
          "INSERT INTO sources (machine, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at) VALUES ('m9', 1, '/b.jsonl', 'session', 3, 1, 3, 5)",
        ),
      ).rejects.toThrow(/foreign key/);
    });
  });

  it('004 brings a database at 003 forward: its rows kept, and a push of the same machine fills the new tables', async () => {
    const url = await server.createDatabase('from_003');
    await connected(url, async (client) => {
      expect(await migratePostgres(client, readPgMigrations().slice(0, 3))).toEqual([1, 2, 3]);
      await client.query("INSERT INTO machines VALUES ('m1', 'laptop', 'ana', 1, 1)");
      await client.query(
        `INSERT INTO sources (machine, person, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at)
         VALUES ('m1', 'ana', 1, '/a.jsonl', 'session', 3, 1, 3, 5)`,
      );
      expect(await migratePostgres(client)).toEqual(
        readPgMigrations()
          .filter((migration) => migration.version >= 4)
          .map((migration) => migration.version),
      );
      expect((await client.query('SELECT machine, path FROM sources')).rows).toEqual([
        { machine: 'm1', path: '/a.jsonl' },
      ]);
      expect(await tables(client)).toEqual(
        expect.arrayContaining(['topics', 'topic_labels', 'dossier_versions', 'dossier_sentences', 'memory_pushes']),
      );
      const memory = {
        topics: {
          format: 'weft.topics' as const,
          topics: [{ id: 't1', name: 'Storage', createdAt: 2 }],
          labels: [{ turnKey: 'claude-code:s1#1', contentHash: 'h', topicIds: ['t1'], by: 'name' as const, at: 3 }],
        },
        dossiers: [],
        turnPutAside: () => false,
        sentenceStruck: () => false,
      };
      const machine = { id: 'm1', name: 'laptop', person: 'ana' };
      expect(await pushMemoryToPostgres(client, machine, memory)).toMatchObject({ changed: true, rows: { topics: 1 } });
      expect(await pushMemoryToPostgres(client, machine, memory)).toMatchObject({ changed: false });
      const labels = await client.query('SELECT machine, person, turn_key, topic_ids FROM topic_labels');
      expect(labels.rows).toEqual([{ machine: 'm1', person: 'ana', turn_key: 'claude-code:s1#1', topic_ids: ['t1'] }]);
    });
  });

  it('005 brings a database at the previous version forward: its turns found through their word lists', async () => {
    const url = await server.createDatabase('from_004');
    const long = `w${'x'.repeat(150)}`;
    await connected(url, async (client) => {
      const before = readPgMigrations().filter((migration) => migration.version < 5);
      await migratePostgres(client, before);
      await client.query("INSERT INTO machines VALUES ('m1', 'lab', 'ana', 1, 1)");
      await client.query(
        `INSERT INTO sources (id, machine, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at)
         VALUES (1, 'm1', 1, '/a.jsonl', 'session', 3, 1, 3, 5)`,
      );
      await client.query(
        `INSERT INTO sessions (id, machine, local_id, source_id, runner, session_id, title, is_subagent)
         VALUES (1, 'm1', 1, 1, 'claude-code', 's1', 'T', 0)`,
      );
      await client.query(
        `INSERT INTO turns (id, machine, local_id, turn_key, session_row, number, user_text, assistant_text, steps,
           user_words, assistant_words) VALUES
           (1, 'm1', 1, 'claude-code:s1#1', 1, 1, 'q', 'a', '[]', ' fix the parser ${long} ', ' done '),
           (2, 'm1', 2, 'claude-code:s1#2', 1, 2, 'q', 'a', '[]', ' the parser fix ', ' done ')`,
      );
      expect(await migratePostgres(client)).toEqual(
        readPgMigrations()
          .filter((migration) => migration.version >= 5)
          .map((migration) => migration.version),
      );
      await client.query('SET enable_seqscan = off');
      const find = async (words: string) => {
        const sql = `SELECT turn_key FROM turns WHERE weft_words(user_words) @> weft_words($1)
                     AND user_words LIKE '%' || $1 || '%'`;
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [words]);
        expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('turns_user_word_list');
        return (await client.query<{ turn_key: string }>(sql, [words])).rows.map((row) => row.turn_key).sort();
      };
      // The rows kept, found by their words in order (the list proposes both, LIKE keeps the one in order).
      expect(await find(' fix the parser ')).toEqual(['claude-code:s1#1']);
      expect(await find(' parser fix ')).toEqual(['claude-code:s1#2']);
      // A word longer than a list key is cut the same way on both sides: still found.
      expect(await find(` parser ${long} `)).toEqual(['claude-code:s1#1']);
      expect(await find(` parser ${long}y `)).toEqual([]);
    });
  });

  it('006 brings a database at 005 forward: a person’s role reads, changes and adds only rows of its own', async () => {
    const url = await server.createDatabase('from_005');
    const source = (machine: string, person: string, path: string) =>
      `INSERT INTO sources (machine, person, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at)
       VALUES ('${machine}', '${person}', 1, '${path}', 'session', 3, 1, 3, 5) RETURNING id`;
    const ana = await connected(url, async (client) => {
      await migratePostgres(
        client,
        readPgMigrations().filter((migration) => migration.version < 6),
      );
      await client.query("INSERT INTO machines VALUES ('m1', 'laptop', 'ana', 1, 1), ('m2', 'lab', 'bo', 1, 1)");
      await client.query(source('m1', 'ana', '/a.jsonl'));
      await client.query(source('m2', 'bo', '/b.jsonl'));
      const init = await initTeamDatabase(client, url, 'ana');
      expect(init.applied).toEqual(
        readPgMigrations()
          .filter((migration) => migration.version >= 6)
          .map((migration) => migration.version),
      );
      return init.person!.url;
    });
    await connected(ana, async (client) => {
      // No grant: only her own machine's source, which she may read back as she adds (RETURNING) and change.
      expect((await client.query('SELECT path FROM sources')).rows).toEqual([{ path: '/a.jsonl' }]);
      expect((await client.query(source('m1', 'ana', '/c.jsonl'))).rowCount).toBe(1);
      expect((await client.query("UPDATE sources SET size = 4 WHERE machine = 'm1'")).rowCount).toBe(2);
      await expect(client.query(source('m1', 'bo', '/d.jsonl'))).rejects.toThrow(/row-level security/);
      await expect(client.query(source('m2', 'ana', '/d.jsonl'))).rejects.toThrow(/row-level security/);
      expect((await client.query('DELETE FROM sources')).rowCount).toBe(2);
    });
    await connected(url, async (client) => {
      expect((await client.query('SELECT machine, path FROM sources')).rows).toEqual([
        { machine: 'm2', path: '/b.jsonl' },
      ]);
    });
  });

  it('007 brings a database at 006 forward: a person reads the same turns, the grants read once per statement', async () => {
    const url = await server.createDatabase('from_006');
    // Rows of bo's machine, so only ana's grants decide what she reads (not her own rows, 006).
    const cwds = ['/a', '/a/b', '/ab', '/p.q/x', '/pxq', '/p.q', null, 'rel', '/z'];
    const keys = ['canvas:c(1)#n1', 'canvas:c(1)x#n2', 'canvas:c#n3', 'canvas:c1#n4'];
    const ana = await connected(url, async (client) => {
      await migratePostgres(
        client,
        readPgMigrations().filter((migration) => migration.version < 7),
      );
      await client.query("INSERT INTO machines VALUES ('m2', 'lab', 'bo', 1, 1)");
      await client.query(
        `INSERT INTO sources (id, machine, person, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at)
         VALUES (1, 'm2', 'bo', 1, '/b.jsonl', 'session', 3, 1, 3, 5)`,
      );
      await client.query(
        `INSERT INTO sessions (id, machine, local_id, source_id, runner, session_id, title, is_subagent)
         VALUES (1, 'm2', 1, 1, 'claude-code', 's1', 'T', 0)`,
      );
      const turns: [string, string | null][] = [
        ...cwds.map((cwd, at): [string, string | null] => [`claude-code:s1#${at}`, cwd]),
        ...keys.map((key): [string, string | null] => [key, null]),
      ];
      for (const [at, [key, cwd]] of turns.entries())
        await client.query(
          `INSERT INTO turns (machine, local_id, turn_key, session_row, number, cwd, user_text,
             assistant_text, steps, user_words, assistant_words)
           VALUES ('m2', $1::bigint, $2, 1, $1::int, $3, 'q', 'a', '[]', ' q ', ' a ')`,
          [at + 1, key, cwd],
        );
      const init = await initTeamDatabase(client, url, 'ana');
      expect(init.applied).toEqual([7]);
      for (const project of ['/a', '/p.q', 'canvas:c(1)']) await grantProject(client, 'ana', project);
      return init.person!.url;
    });
    const readable = (client: pg.Client) =>
      client
        .query<{ key: string; cwd: string | null }>('SELECT turn_key AS key, cwd FROM turns ORDER BY local_id')
        .then((result) => result.rows);
    await connected(ana, async (client) => {
      // A folder is itself and below (not a sibling sharing its prefix, and its dot is a dot); a canvas by its key.
      expect(await readable(client)).toEqual([
        { key: 'claude-code:s1#0', cwd: '/a' },
        { key: 'claude-code:s1#1', cwd: '/a/b' },
        { key: 'claude-code:s1#3', cwd: '/p.q/x' },
        { key: 'claude-code:s1#5', cwd: '/p.q' },
        { key: 'canvas:c(1)#n1', cwd: null },
      ]);
      // The session follows its turns (003). The grants are init-plans, and the only subquery left (her machines,
      // 006) is hashed once: no query runs per row.
      expect((await client.query('SELECT count(*)::int AS n FROM sessions')).rows).toEqual([{ n: 1 }]);
      const plan = await client.query<{ 'QUERY PLAN': string }>('EXPLAIN SELECT count(*) FROM turns');
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toMatch(/InitPlan/);
      expect(text).not.toMatch(/\(SubPlan \d+\)/);
    });
    await connected(url, (client) => grantProject(client, 'ana', '/'));
    await connected(ana, async (client) => {
      // '/' is every absolute cwd, not a relative one nor none.
      expect((await readable(client)).map((row) => row.cwd)).toEqual([
        '/a',
        '/a/b',
        '/ab',
        '/p.q/x',
        '/pxq',
        '/p.q',
        '/z',
        null,
      ]);
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
