import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDossierStore } from '../runtime/dossiers/index.ts';
import { copyFixtures, type FixtureWorkspace } from '../runtime/index/fixture-roots.ts';
import { fts5PhrasePattern, fts5Words } from '../runtime/index/fts5-words.ts';
import { memoryDirectory } from '../runtime/memory/index.ts';
import { TopicStore } from '../runtime/topics/index.ts';
import { startPostgres, type PostgresServer } from '../tests/support/postgres-server.ts';
import { runWeftInProcess, type WeftRun } from './run-weft.ts';

/**
 * Who may read what (issue 32.3): `weft db init` makes the roles, `weft db grant` the grants, and row-level
 * security keeps every other project's rows from a person's connection, in SQL and through `weft find | why`, and
 * the topics and dossiers that rest on them through `weft topics | dossier`.
 */
let server: PostgresServer;
let space: FixtureWorkspace;
let adminUrl: string;
const urls: Record<string, string> = {};
/** The folder ana is granted: the working directory most of the corpus's turns were asked in. */
let project: string;

function env(url?: string): Record<string, string> {
  const base = Object.fromEntries(Object.entries(space.env).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
  delete base.WEFT_DATABASE_URL;
  return url ? { ...base, WEFT_DATABASE_URL: url } : base;
}

const weft = (argv: string[], url?: string): Promise<WeftRun> =>
  runWeftInProcess(argv, { cwd: space.directory, env: env(url) });

async function query<Row>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

const TABLES = ['sources', 'sessions', 'turns', 'touches', 'urls', 'papers', 'materials', 'cjk_texts'];
const counts = async (url: string) =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (table) => [
        table,
        (await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM ${table}`))[0]!.n,
      ]),
    ),
  ) as Record<string, number>;

beforeAll(async () => {
  server = await startPostgres();
  space = copyFixtures('weft-team-access-');
  adminUrl = await server.createDatabase('access');
  expect((await weft(['index', '--push', '--db', adminUrl, '--json'])).code).toBe(0);
  for (const person of ['ana', 'bo']) {
    const file = join(space.directory, `${person}.url`);
    const run = await weft(['db', 'init', '--person', person, '--out', file, '--json'], adminUrl);
    expect(run.code, run.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    urls[person] = readFileSync(file, 'utf8').trim();
    // The new password and the admin's are printed nowhere.
    for (const secret of [new URL(urls[person]).password, new URL(adminUrl).password])
      expect(run.stdout + run.stderr).not.toContain(secret);
  }
  const cwds = await query<{ cwd: string; n: number }>(
    adminUrl,
    'SELECT cwd, count(*)::int AS n FROM turns WHERE cwd IS NOT NULL GROUP BY cwd ORDER BY n DESC, cwd',
  );
  expect(cwds.length).toBeGreaterThan(1);
  project = cwds[0]!.cwd;
  const granted = await weft(['db', 'grant', 'ana', project], adminUrl);
  expect(granted.code, granted.stderr).toBe(0);
}, 180_000);

afterAll(() => {
  server?.stop();
  if (space) rmSync(space.directory, { recursive: true, force: true });
});

describe('who may read what on the team index (issue 32.3)', () => {
  it('a role without a grant reads no row of any project; a granted one only its project', async () => {
    const all = await counts(adminUrl);
    expect(all.turns).toBeGreaterThan(10);
    expect(await counts(urls.bo!)).toEqual(Object.fromEntries(TABLES.map((table) => [table, 0])));
    const ana = await counts(urls.ana!);
    const inProject = await query<{ n: number }>(
      adminUrl,
      "SELECT count(*)::int AS n FROM turns WHERE cwd = $1 OR cwd LIKE $1 || '/%'",
      [project],
    );
    expect(ana.turns).toBe(inProject[0]!.n);
    expect(ana.turns).toBeGreaterThan(0);
    expect(ana.turns).toBeLessThan(all.turns!);
    expect(ana.touches).toBeGreaterThan(0);
    expect(ana.touches).toBeLessThan(all.touches!);
    // Every row ana sees hangs off a turn of the project.
    const outside = await query<{ n: number }>(
      urls.ana!,
      `SELECT count(*)::int AS n FROM touches x JOIN turns t ON t.id = x.turn_id
       WHERE NOT (t.cwd = $1 OR t.cwd LIKE $1 || '/%')`,
      [project],
    );
    expect(outside[0]!.n).toBe(0);
    // Nor may a person read the grants of others, or grant themselves more.
    expect(await query(urls.bo!, 'SELECT * FROM weft_grants')).toEqual([]);
    await expect(query(urls.bo!, "INSERT INTO weft_grants VALUES ('bo', '/')")).rejects.toThrow(/permission denied/);
  });

  it('weft find with a person’s connection string answers as the local index does inside their project', async () => {
    const texts = await query<{ q: string }>(adminUrl, 'SELECT user_text AS q FROM turns ORDER BY id');
    const phrases = [...new Set(texts.map(({ q }) => q.split(/\s+/).slice(0, 2).join(' ')))].filter((phrase) =>
      /[\p{L}\p{N}]/u.test(phrase),
    );
    let someHidden = 0;
    for (const phrase of phrases.slice(0, 12)) {
      const local = await weft(['find', phrase, '--cwd', project, '--json']);
      const ana = await weft(['find', phrase, '--json'], urls.ana);
      expect({ phrase, stdout: ana.stdout }).toEqual({ phrase, stdout: local.stdout });
      const bo = await weft(['find', phrase, '--json'], urls.bo);
      expect({ phrase, stdout: bo.stdout.trim() }).toEqual({ phrase, stdout: '[]' });
      const everywhere = await weft(['find', phrase, '--json']);
      if (everywhere.stdout !== ana.stdout) someHidden += 1;
    }
    expect(someHidden).toBeGreaterThan(0);
  }, 120_000);

  it('find’s indexed path for a person (weft_find_turns) answers only the turns their grants allow', async () => {
    const texts = await query<{ q: string }>(adminUrl, 'SELECT user_text AS q FROM turns ORDER BY id');
    const phrases = [...new Set(texts.map(({ q }) => q.split(/\s+/).slice(0, 2).join(' ')))].filter((phrase) =>
      /[\p{L}\p{N}]/u.test(phrase),
    );
    const call = (url: string, values: unknown[], column = 'user_words') =>
      query<{ id: string }>(url, `SELECT weft_find_turns('${column}', $1, $2, NULL, NULL, NULL, 20) AS id`, values);
    let someHidden = 0;
    for (const phrase of phrases.slice(0, 12)) {
      const values = [fts5Words(phrase), fts5PhrasePattern(phrase)];
      const everywhere = await query<{ id: string }>(
        adminUrl,
        'SELECT id FROM turns WHERE user_words LIKE $1 ORDER BY id DESC LIMIT 20',
        [values[1]],
      );
      const inProject = await query<{ id: string }>(
        adminUrl,
        `SELECT id FROM turns WHERE user_words LIKE $1 AND (cwd = $2 OR cwd LIKE $2 || '/%') ORDER BY id DESC LIMIT 20`,
        [values[1], project],
      );
      expect({ phrase, ids: await call(urls.ana!, values) }).toEqual({ phrase, ids: inProject });
      expect({ phrase, ids: await call(urls.bo!, values) }).toEqual({ phrase, ids: [] });
      if (everywhere.length > inProject.length) someHidden += 1;
    }
    expect(someHidden).toBeGreaterThan(0);
    // Only the columns of words: not a way to read any other column through the owner's rights.
    await expect(call(urls.bo!, [' a ', '% a %'], 'user_text')).rejects.toThrow(/no column of words/);
  });

  it('weft why with a person’s connection string names only their project’s turns', async () => {
    const paths = await query<{ path: string }>(adminUrl, 'SELECT DISTINCT path FROM touches ORDER BY path');
    let hidden = 0;
    let shown = 0;
    for (const { path } of paths.filter((_, at) => at % 3 === 0).slice(0, 20)) {
      const local = JSON.parse((await weft(['why', path, '--all', '--include-read', '--json'])).stdout) as {
        cwd: string | null;
      }[];
      const ana = JSON.parse((await weft(['why', path, '--all', '--include-read', '--json'], urls.ana)).stdout) as {
        cwd: string | null;
      }[];
      const bo = JSON.parse(
        (await weft(['why', path, '--all', '--include-read', '--json'], urls.bo)).stdout,
      ) as unknown[];
      expect(bo).toEqual([]);
      const inside = (hit: { cwd: string | null }) =>
        hit.cwd !== null && (hit.cwd === project || hit.cwd.startsWith(`${project}/`));
      expect(ana).toEqual(local.filter(inside));
      hidden += local.length - ana.length;
      shown += ana.length;
    }
    expect(hidden).toBeGreaterThan(0);
    expect(shown).toBeGreaterThan(0);
  }, 120_000);

  it('topics and dossiers follow the turns: a label, topic or sentence only where every cited turn is readable', async () => {
    const keyOf = async (inside: boolean) =>
      (
        await query<{ key: string }>(
          adminUrl,
          `SELECT turn_key AS key FROM turns WHERE cwd IS NOT NULL AND (cwd = $1 OR cwd LIKE $1 || '/%') = $2
           ORDER BY id LIMIT 1`,
          [project, inside],
        )
      )[0]!.key;
    const [inside, outside] = [await keyOf(true), await keyOf(false)];
    const topic = (id: string, name: string) => ({ id, name, createdAt: 1 });
    const label = (turnKey: string, topicId: string) => ({
      turnKey,
      contentHash: 'h',
      topicIds: [topicId],
      by: 'name' as const,
      at: 1,
    });
    await new TopicStore({ directory: memoryDirectory(space.weftHome), now: Date.now, newId: randomUUID }).update(
      null,
      () => ({
        record: {
          format: 'weft.topics',
          topics: [topic('t-in', 'Inside'), topic('t-out', 'Outside')],
          labels: [label(inside, 't-in'), label(outside, 't-out')],
        },
        events: [],
        result: null,
      }),
    );
    const store = openDossierStore(space.weftHome);
    store.writeVersion({
      topicId: 't-in',
      mode: 'rebuild',
      modelId: null,
      baseVersion: 0,
      dossier: {
        format: 'weft.dossier',
        topicId: 't-in',
        version: 1,
        writtenAt: 1,
        sections: {
          what: [{ id: 'a', text: 'Rests on the project only.', citations: [inside] }],
          decisions: [{ id: 'b', text: 'Rests on another project.', citations: [outside] }],
          status: [{ id: 'c', text: 'Rests on both.', citations: [inside, outside] }],
          open: [],
        },
      },
      dropped: [],
      turnsRead: [],
      factsRead: [],
    });
    store.close();
    expect((await weft(['index', '--push', '--db', adminUrl])).code).toBe(0);
    const memoryTables = ['topics', 'topic_labels', 'dossier_versions', 'dossier_sentences', 'dossier_citations'];
    const countsOf = async (url: string) =>
      Promise.all(
        memoryTables.map(
          async (table) => (await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM ${table}`))[0]!.n,
        ),
      );
    expect(await countsOf(adminUrl)).toEqual([2, 2, 1, 3, 4]);
    expect(await countsOf(urls.bo!)).toEqual([0, 0, 0, 0, 0]);
    expect(await countsOf(urls.ana!)).toEqual([1, 1, 1, 1, 2]);
    // Through the CLI: ana lists the topic of her project and reads its dossier without the other project's words.
    const topics = JSON.parse((await weft(['topics', 'list', '--json'], urls.ana)).stdout) as { name: string }[];
    expect(topics.map((each) => each.name)).toEqual(['Inside']);
    const dossier = JSON.parse((await weft(['dossier', 'Inside', '--json'], urls.ana)).stdout) as {
      dossier: { sections: Record<string, { id: string }[]> };
    };
    expect(
      Object.values(dossier.dossier.sections)
        .flat()
        .map((sentence) => sentence.id),
    ).toEqual(['a']);
    expect((await weft(['dossier', 'Inside', '--json'], urls.bo)).code).not.toBe(0);
    const everything = JSON.parse((await weft(['dossier', 'Inside', '--json'])).stdout) as typeof dossier;
    expect(Object.values(everything.dossier.sections).flat()).toHaveLength(3);
  }, 120_000);

  it('a revoked grant reads nothing again; init twice changes nothing but the password', async () => {
    // An existing file is refused before the role is touched: ana's password still works.
    const refused = await weft(['db', 'init', '--person', 'ana', '--out', join(space.directory, 'ana.url')], adminUrl);
    expect(refused.code).not.toBe(0);
    expect(readFileSync(join(space.directory, 'ana.url'), 'utf8').trim()).toBe(urls.ana);
    expect((await counts(urls.ana!)).turns).toBeGreaterThan(0);
    const again = await weft(['db', 'init', '--json'], adminUrl);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: [] });
    expect((await weft(['db', 'revoke', 'ana', project], adminUrl)).code).toBe(0);
    expect((await counts(urls.ana!)).turns).toBe(0);
    expect((await weft(['db', 'grant', 'ana', project], adminUrl)).code).toBe(0);
    expect((await counts(urls.ana!)).turns).toBeGreaterThan(0);
    const grants = JSON.parse((await weft(['db', 'grants', '--json'], urls.ana)).stdout) as unknown[];
    expect(grants).toEqual([{ person: 'ana', project }]);
  });

  it('sslmode in the connection string is honoured, and a refusal never shows the string', async () => {
    const url = `${urls.ana}?sslmode=require`;
    const run = await weft(['find', 'file', '--json'], url);
    expect(run.code).not.toBe(0);
    // The test server offers no TLS: a client that honours sslmode=require refuses to go on without it.
    expect(run.stderr).toMatch(/SSL/i);
    expect(run.stdout + run.stderr).not.toContain(new URL(urls.ana!).password);
    const bad = await weft(['db', 'grant', 'ana', 'relative/../nowhere'], 'postgres://ana:s3cret-77@127.0.0.1:1/x');
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).not.toContain('s3cret-77');
  });
});

describe('who may write what on the team index (issue 32.3)', () => {
  /** Ana's own machine: the same corpus in another $WEFT_HOME, pushed with her own role. */
  let own: FixtureWorkspace;
  let machine: string;
  const ownEnv = () =>
    Object.fromEntries(Object.entries(own.env).filter(([, value]) => value !== undefined)) as Record<string, string>;
  // The name the machine would give is not the one recorded: the server says who the role is.
  const asAna = (argv: string[]): Promise<WeftRun> =>
    runWeftInProcess(argv, {
      cwd: own.directory,
      env: { ...ownEnv(), WEFT_DATABASE_URL: urls.ana!, WEFT_PERSON: 'somebody_else' },
    });
  type Pushed = { team: { rows: Record<string, number>; memory: { changed: boolean; rows: { topics: number } } } };

  beforeAll(() => {
    own = copyFixtures('weft-team-own-');
  });

  afterAll(() => {
    if (own) rmSync(own.directory, { recursive: true, force: true });
  });

  it('a person’s own role pushes index and memory, twice without adding anything, and then finds its own turns', async () => {
    const outside = (
      await query<{ q: string }>(
        adminUrl,
        `SELECT user_text AS q FROM turns WHERE cwd IS NOT NULL AND NOT (cwd = $1 OR cwd LIKE $1 || '/%')
         AND user_text ~ '^[A-Za-z]+ [A-Za-z]+' ORDER BY id LIMIT 1`,
        [project],
      )
    )[0]!.q;
    const phrase = outside.split(/\s+/).slice(0, 2).join(' ');
    const found = async () => JSON.parse((await asAna(['find', phrase, '--json'])).stdout) as unknown[];
    expect(await found()).toEqual([]);
    const key = (await query<{ key: string }>(adminUrl, 'SELECT turn_key AS key FROM turns ORDER BY id LIMIT 1'))[0]!
      .key;
    await new TopicStore({ directory: memoryDirectory(own.weftHome), now: Date.now, newId: randomUUID }).update(
      null,
      () => ({
        record: {
          format: 'weft.topics',
          topics: [{ id: 't-own', name: 'Own', createdAt: 1 }],
          labels: [{ turnKey: key, contentHash: 'h', topicIds: ['t-own'], by: 'name', at: 1 }],
        },
        events: [],
        result: null,
      }),
    );
    const first = await asAna(['index', '--push', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const pushed = JSON.parse(first.stdout) as Pushed;
    expect(pushed.team.rows.turns).toBeGreaterThan(10);
    expect(pushed.team.memory).toMatchObject({ changed: true, rows: { topics: 1 } });
    machine = (JSON.parse(readFileSync(join(own.weftHome, 'machine.json'), 'utf8')) as { id: string }).id;
    const again = await asAna(['index', '--push', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout) as Pushed;
    expect(Object.values(second.team.rows).every((n) => n === 0)).toBe(true);
    expect(second.team.memory.changed).toBe(false);
    // Her own turns answer, outside the project she is granted too.
    expect((await found()).length).toBeGreaterThan(0);
    // The server recorded her, not the name the machine gave.
    const recorded = await query<{ person: string }>(
      adminUrl,
      `SELECT person FROM machines WHERE machine = $1 UNION SELECT person FROM sources WHERE machine = $1
       UNION SELECT person FROM topics WHERE machine = $1`,
      [machine],
    );
    expect(recorded).toEqual([{ person: 'ana' }]);
    // Her machine is hers: another person's role may not push it.
    const bo = await runWeftInProcess(['index', '--push', '--db', urls.bo!], { cwd: own.directory, env: ownEnv() });
    expect(bo.code).not.toBe(0);
    expect(bo.stderr).toContain("is ana's on the team index: bo's role may not push it");
    // A changed memory replaces her machine's rows (the delete sees them all).
    const topics = new TopicStore({ directory: memoryDirectory(own.weftHome), now: Date.now, newId: randomUUID });
    await topics.update(null, ({ record }) => ({
      record: { ...record, topics: [...record.topics, { id: 't-two', name: 'Two', createdAt: 2 }] },
      events: [],
      result: null,
    }));
    const third = await asAna(['index', '--push', '--json']);
    expect(third.code, third.stderr).toBe(0);
    expect((JSON.parse(third.stdout) as Pushed).team.memory).toMatchObject({ changed: true, rows: { topics: 2 } });
    expect(await query(adminUrl, 'SELECT topic_id FROM topics WHERE machine = $1 ORDER BY 1', [machine])).toEqual([
      { topic_id: 't-own' },
      { topic_id: 't-two' },
    ]);
  }, 180_000);

  it('another person cannot write under her name or machine, nor change her rows even where granted to read them', async () => {
    expect(machine).toBeDefined();
    const refused = /row-level security/;
    const source = (machineId: string, person: string) =>
      query(
        urls.bo!,
        `INSERT INTO sources (machine, person, generation, local_id, path, kind, size, mtime_ms, bytes_read, indexed_at)
         VALUES ($1, $2, 'g', 1, '/forged', 'session', 0, 0, 0, 0)`,
        [machineId, person],
      );
    await expect(source(machine, 'bo')).rejects.toThrow(refused);
    await expect(query(urls.bo!, "INSERT INTO machines VALUES ('bo-forged', 'x', 'ana', 1, 1)")).rejects.toThrow(
      refused,
    );
    // Nor take her machine over: the claim is hers.
    await expect(
      query(
        urls.bo!,
        "INSERT INTO machines VALUES ($1, 'x', 'bo', 1, 1) ON CONFLICT (machine) DO UPDATE SET person = 'bo'",
        [machine],
      ),
    ).rejects.toThrow(refused);
    // His own machine takes his name only.
    await query(urls.bo!, "INSERT INTO machines VALUES ('bo-laptop', 'laptop', 'bo', 1, 1)");
    await expect(source('bo-laptop', 'ana')).rejects.toThrow(refused);
    await expect(
      query(urls.bo!, "INSERT INTO topics VALUES ($1, 'bo', 'forged', 0, 'Forged', 1)", [machine]),
    ).rejects.toThrow(refused);
    await source('bo-laptop', 'bo');

    expect((await weft(['db', 'grant', 'bo', '/'], adminUrl)).code).toBe(0);
    try {
      const before = await counts(adminUrl);
      const readable = await query<{ n: number }>(urls.bo!, 'SELECT count(*)::int AS n FROM turns WHERE machine = $1', [
        machine,
      ]);
      expect(readable[0]!.n).toBeGreaterThan(0);
      for (const table of ['sources', 'turns', 'touches', 'topics', 'topic_labels', 'machines']) {
        const changed = async (sql: string) => {
          const client = new pg.Client({ connectionString: urls.bo! });
          await client.connect();
          try {
            return (await client.query(sql, [machine])).rowCount;
          } finally {
            await client.end();
          }
        };
        expect({ table, n: await changed(`DELETE FROM ${table} WHERE machine = $1`) }).toEqual({ table, n: 0 });
        expect({ table, n: await changed(`UPDATE ${table} SET machine = machine WHERE machine = $1`) }).toEqual({
          table,
          n: 0,
        });
      }
      // Nor the admin's machine's rows.
      expect(
        (
          await query<{ n: number }>(
            urls.bo!,
            "WITH d AS (DELETE FROM turns WHERE machine <> 'bo-laptop' RETURNING 1) SELECT count(*)::int AS n FROM d",
          )
        )[0]!.n,
      ).toBe(0);
      // The admin still sees everything: both machines' rows, none gone.
      expect(await counts(adminUrl)).toEqual({ ...before });
      const machines = await query<{ machine: string }>(adminUrl, 'SELECT DISTINCT machine FROM turns');
      expect(machines.length).toBe(2);
      const ana = await query<{ n: number }>(urls.ana!, 'SELECT count(*)::int AS n FROM turns WHERE machine = $1', [
        machine,
      ]);
      const all = await query<{ n: number }>(adminUrl, 'SELECT count(*)::int AS n FROM turns WHERE machine = $1', [
        machine,
      ]);
      expect(ana[0]!.n).toBe(all[0]!.n);
    } finally {
      expect((await weft(['db', 'revoke', 'bo', '/'], adminUrl)).code).toBe(0);
    }
  });
});
