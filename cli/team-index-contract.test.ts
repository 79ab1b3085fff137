import Database from 'better-sqlite3';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_MULTI_TURN, copyFixtures, type FixtureWorkspace } from '../runtime/index/fixture-roots.ts';
import { writeCanvasWithVersions } from '../tests/support/canvas-with-versions.ts';
import { startPostgres, type PostgresServer } from '../tests/support/postgres-server.ts';
import { contentKey } from '../src/core/index.ts';
import { openDossierStore } from '../runtime/dossiers/index.ts';
import { PutAsideStore } from '../runtime/fs/index.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runWeftInProcess, WEFT_BIN, type WeftRun } from './run-weft.ts';

/**
 * The contract of issue 32: the same corpus indexed once, `weft index --push` sending it to a real PostgreSQL
 * server, then every `weft why | find | recall | status | topics | dossier` asked of both engines must print the same bytes.
 */
const CJK_SESSION = '5b0c2f4e-8d1a-4c3b-9e7f-2a6d8c4e1b90';
let server: PostgresServer;
let space: FixtureWorkspace;
let teamUrl: string;

function writeCjkSession(): void {
  const source = readFileSync(join(space.roots[0]!, CLAUDE_MULTI_TURN), 'utf8');
  const text = source
    .replaceAll('4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b', CJK_SESSION)
    .replaceAll(
      'Write a TODO.md file with two unchecked items: write tests, update docs. [multi-turn:1]',
      '请你优化仓库里的README.md，把安装步骤写清楚，再用TypeScript的类型守卫重构解析函数',
    )
    .replaceAll(
      'Mark the first item as done and show me the file. [multi-turn:2]',
      // Folding where a port of unicode61 is easily wrong: İ, decomposed marks, ſ, non-Latin marks, Adlam case.
      'このリポジトリのテストを修正してください。失敗しているのはparse.test.tsです。Café Naïve ÜBER' +
        ' İstanbul re\u0301sume\u0301 Straſſe мой Ἀθῆναι 𞤀𞤢',
    );
  writeFileSync(join(space.roots[0]!, 'claude', `${CJK_SESSION}.jsonl`), text);
  writeFileSync(
    join(space.memoryRoot, 'CLAUDE.md'),
    '# 项目约定\n所有提交信息使用中文书写，每次提交前运行npm test。\n',
  );
}

const local = (argv: string[]) => runWeftInProcess(argv, { cwd: space.directory, env: env() });
const team = (argv: string[]) => runWeftInProcess(argv, { cwd: space.directory, env: env(teamUrl) });

function env(url?: string): Record<string, string> {
  const base = Object.fromEntries(Object.entries(space.env).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
  delete base.WEFT_DATABASE_URL;
  return url ? { ...base, WEFT_DATABASE_URL: url } : base;
}

/** Both engines, one command line: the same exit code, the same stdout, byte for byte. */
async function same(argv: string[]): Promise<WeftRun> {
  const [sqlite, postgres] = [await local(argv), await team(argv)];
  expect({ argv, code: postgres.code, stdout: postgres.stdout }).toEqual({
    argv,
    code: sqlite.code,
    stdout: sqlite.stdout,
  });
  expect(postgres.stderr).toBe(sqlite.stderr);
  return sqlite;
}

beforeAll(async () => {
  server = await startPostgres();
  space = copyFixtures('weft-team-contract-');
  writeCjkSession();
  writeCanvasWithVersions(space.weftHome);
  teamUrl = await server.createDatabase('contract');
}, 120_000);

afterAll(() => {
  server?.stop();
  if (space) rmSync(space.directory, { recursive: true, force: true });
});

describe('the why index on PostgreSQL answers as SQLite does (issue 32)', () => {
  it('weft index --push --db sends every row and shows where, never the credentials', async () => {
    const run = await runWeftInProcess(['index', '--push', '--db', teamUrl, '--json'], {
      cwd: space.directory,
      env: env(),
    });
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as {
      turns: number;
      team: { location: string; rows: Record<string, number> };
    };
    expect(printed.team.location).toBe(`postgres://127.0.0.1:${server.port}/contract`);
    expect(printed.team.rows.turns).toBe(printed.turns);
    expect(printed.turns).toBeGreaterThan(10);
    const password = new URL(teamUrl).password;
    expect(run.stdout + run.stderr).not.toContain(password);
  });

  it('weft why: every path, bare name, URL and paper of the corpus, with and without reads, same JSON', async () => {
    const sqlite = new Database(join(space.weftHome, 'index.db'), { readonly: true });
    const paths = (sqlite.prepare('SELECT DISTINCT path FROM touches ORDER BY path').all() as { path: string }[]).map(
      (row) => row.path,
    );
    const names = (sqlite.prepare('SELECT DISTINCT name FROM touches ORDER BY name').all() as { name: string }[]).map(
      (row) => row.name,
    );
    const urls = (sqlite.prepare('SELECT DISTINCT url FROM urls ORDER BY url').all() as { url: string }[]).map(
      (row) => row.url,
    );
    const papers = (
      sqlite.prepare('SELECT DISTINCT kind, identifier FROM papers').all() as { kind: string; identifier: string }[]
    ).map((row) => `${row.kind}:${row.identifier}`);
    sqlite.close();
    expect(paths.length).toBeGreaterThan(5);
    const folders = [
      ...new Set(paths.filter((path) => path.startsWith('/')).map((path) => path.replace(/\/[^/]*$/, ''))),
    ];
    // Spread over the corpus (each target is asked 8 times over both engines): enough to cover every kind of target.
    const spread = (all: string[], most: number) => all.filter((_, at) => at % Math.ceil(all.length / most) === 0);
    const targets = [
      ...spread(paths, 40),
      ...spread(folders, 15),
      ...spread(
        names.filter((name) => !name.includes('/')),
        15,
      ),
      ...spread(urls, 10),
      ...spread(papers, 10),
    ];
    let answered = 0;
    for (const target of targets) {
      for (const flags of [['--json'], ['--include-read', '--json'], ['--all', '--limit', '2', '--json']]) {
        const run = await same(['why', target, ...flags]);
        if (run.stdout.trim() !== '[]') answered += 1;
      }
      await same(['why', '--check', target, '--json']);
    }
    await same(['why', '/nowhere/never-touched.ts', '--json']);
    await same(['why', '--check', '/nowhere/never-touched.ts']);
    expect(answered).toBeGreaterThan(targets.length);
  }, 240_000);

  it('weft find: phrases from every turn, CJK runs, diacritics, query syntax and folders, same JSON', async () => {
    const sqlite = new Database(join(space.weftHome, 'index.db'), { readonly: true });
    const texts = sqlite.prepare('SELECT user_text AS q, assistant_text AS a FROM turns ORDER BY id').all() as {
      q: string;
      a: string;
    }[];
    sqlite.close();
    const phrases = new Set<string>();
    for (const { q, a } of texts) {
      for (const text of [q, a]) {
        const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
        if (words.length >= 2) phrases.add(words.slice(0, 2).join(' '));
        if (words.length >= 5) phrases.add(words.slice(2, 5).join(' '));
      }
    }
    // Spread over the corpus, at most 30 (each is asked 8 times: 4 ways, 2 engines).
    const sampled = [...phrases].filter((_, at, all) => at % Math.ceil(all.length / 30) === 0);
    const fixed = [
      '优化仓库',
      '类型守卫',
      '安装步',
      '仓库',
      '重构',
      'テストを修正',
      '修正',
      '用TypeScript的类型',
      '用typescript的',
      'のはparse.test',
      '待办事项',
      '提交信息',
      '信息',
      '优化代码',
      '优仓',
      'cafe naive',
      'über',
      'istanbul résumé',
      'resume strasse',
      'мои',
      'αθηναι',
      '𞤢𞤢',
      'unchecked items',
      'nchecked item',
      'say "hi" AND OR NEAR(',
      'Mark the first item as done',
      'the',
      'a',
      'file',
    ];
    let answered = 0;
    for (const phrase of [...sampled, ...fixed]) {
      const run = await same(['find', phrase, '--json']);
      if (run.stdout.trim() !== '[]') answered += 1;
      for (const field of ['q', 'a', 'm']) await same(['find', phrase, '--in', field, '--limit', '3', '--json']);
    }
    for (const phrase of ['优化仓库', 'Mark the first item as done', 'file'])
      for (const cwd of ['/tmp/realsessions/out/claude/multi-turn', '/tmp/realsessions/out', '/tmp/elsewhere'])
        await same(['find', phrase, '--cwd', cwd, '--json']);
    // The folding cases find what FTS5 finds, and no more: marks dropped from Latin only, no case past the BMP.
    for (const [phrase, found] of [
      ['resume strasse', true],
      ['мои', false],
      ['αθηναι', false],
      ['𞤢𞤢', false],
    ] as const)
      expect({ phrase, found: (await same(['find', phrase, '--json'])).stdout.trim() !== '[]' }).toEqual({
        phrase,
        found,
      });
    // Refusals are the same too: no words to search for.
    expect((await same(['find', '!!!', '--json'])).code).not.toBe(0);
    expect(answered).toBeGreaterThan(sampled.length / 2);
  }, 240_000);

  it('weft recall: turns by key and by session id (and prefix) and number, text and JSON, refusals, same bytes', async () => {
    const sqlite = new Database(join(space.weftHome, 'index.db'), { readonly: true });
    const turns = sqlite
      .prepare(
        'SELECT t.turn_key AS key, s.session_id AS session, t.number FROM turns t JOIN sessions s ON s.id = t.session_row ORDER BY t.id',
      )
      .all() as { key: string; session: string; number: number }[];
    sqlite.close();
    expect(turns.length).toBeGreaterThan(10);
    // Spread over the corpus, at most 25 turns (each asked 3 ways on both engines).
    let answered = 0;
    for (const turn of turns.filter((_, at) => at % Math.ceil(turns.length / 25) === 0)) {
      if ((await same(['recall', turn.key, '--json'])).code === 0) answered += 1;
      await same(['recall', turn.key]);
      await same(['recall', turn.session.slice(0, 8), String(turn.number), '--json']);
    }
    expect(answered).toBeGreaterThan(10);
    // A canvas turn by its node and by each cited version; a version the canvas does not keep is refused.
    for (const key of ['canvas:contract-canvas#q1', 'canvas:contract-canvas#q1@v1', 'canvas:contract-canvas#q1@v2'])
      expect((await same(['recall', key, '--json'])).code).toBe(0);
    expect((await same(['recall', 'canvas:contract-canvas#q1@v9', '--json'])).code).not.toBe(0);
    // Refusals: an unknown key, a turn past the session's end, an ambiguous and an unknown prefix.
    expect((await same(['recall', 'claude-code:no-such-session#no-such-turn', '--json'])).code).not.toBe(0);
    expect((await same(['recall', turns[0]!.session, '999', '--json'])).code).not.toBe(0);
    await same(['recall', turns[0]!.session.slice(0, 1), '1', '--json']);
    expect((await same(['recall', 'zzzz', '1', '--json'])).code).not.toBe(0);
  }, 240_000);

  it('weft topics and dossier, MCP list_topics and read_dossier: same bytes; struck sentences and the profile never pushed', async () => {
    const database = new Database(join(space.weftHome, 'index.db'), { readonly: true });
    const keys = (database.prepare('SELECT turn_key AS key FROM turns ORDER BY id').all() as { key: string }[]).map(
      (row) => row.key,
    );
    database.close();
    // A person's memory: two topics labelled by name over the corpus, a dossier in two versions (one sentence
    // struck, one citing a turn no index holds), and a profile that must stay on this machine.
    for (const name of ['TODO', 'hello']) expect((await local(['topics', 'create', name])).code).toBe(0);
    expect((await local(['topics', 'label', '--yes'])).code).toBe(0);
    const topics = JSON.parse((await local(['topics', 'list', '--json'])).stdout) as { id: string; turns: number }[];
    expect(topics.some((topic) => topic.turns > 0)).toBe(true);
    const struck = 'The struck sentence says what the person took back.';
    const sentence = (id: string, text: string, citations: string[]) => ({ id, text, citations });
    const store = openDossierStore(space.weftHome);
    for (const version of [1, 2])
      store.writeVersion({
        topicId: topics[0]!.id,
        mode: version === 1 ? 'rebuild' : 'update',
        modelId: null,
        baseVersion: version - 1,
        dossier: {
          format: 'weft.dossier',
          topicId: topics[0]!.id,
          version,
          writtenAt: 1_700_000_000_000 + version,
          sections: {
            what: [sentence('s1', 'A TODO list kept in the repository.', [keys[0]!])],
            decisions: [
              sentence('s2', struck, [keys[1]!]),
              sentence(`s3-${version}`, 'Tests come first.', keys.slice(2, 4)),
            ],
            status:
              version === 2 ? [sentence('s4', 'Its source is gone.', ['claude-code:gone-session#gone-turn'])] : [],
            open: [],
          },
        },
        dropped: [],
        turnsRead: [],
        factsRead: [],
      });
    store.close();
    await new PutAsideStore(space.weftHome).append([
      {
        op: 'put-aside',
        key: contentKey('dossier-sentence', struck),
        kind: 'dossier-sentence',
        reason: 'struck',
        at: 1,
        origin: null,
      },
    ]);
    const profileMarker = 'profile-marker-7c1e: prefers tabs and writes in Esperanto';
    writeFileSync(join(space.weftHome, 'memory', 'profile.json'), JSON.stringify({ facts: [{ text: profileMarker }] }));

    const pushed = await local(['index', '--push', '--db', teamUrl, '--json']);
    expect(pushed.code).toBe(0);
    const memory = (
      JSON.parse(pushed.stdout) as { team: { memory: { changed: boolean; rows: Record<string, number> } } }
    ).team.memory;
    expect(memory).toMatchObject({ changed: true, rows: { topics: 2, dossier_versions: 2, dossier_sentences: 5 } });

    for (const argv of [
      ['topics', 'list', '--json'],
      ['topics', 'list'],
      ['topics', 'labels', 'TODO', '--json'],
      ['topics', 'labels', 'hello'],
      ['topics', 'labels', 'no-such-topic'],
      ['dossier', 'TODO', '--json'],
      ['dossier', 'todo'],
      ['dossier', topics[1]!.id, '--json'],
      ['dossier', 'no-such-topic', '--json'],
    ])
      await same(argv);
    const dossier = JSON.parse((await team(['dossier', 'TODO', '--json'])).stdout) as { retired: string[] };
    expect(dossier.retired).toEqual(['s4']);

    const admin = new pg.Client({ connectionString: teamUrl });
    await admin.connect();
    try {
      const count = async (table: string) =>
        Number((await admin.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
      const before = { labels: await count('topic_labels'), sentences: await count('dossier_sentences') };
      expect(before.labels).toBeGreaterThan(0);
      // A re-push adds nothing, twice never.
      const again = JSON.parse((await local(['index', '--push', '--db', teamUrl, '--json'])).stdout) as {
        team: { memory: { changed: boolean } };
      };
      expect(again.team.memory.changed).toBe(false);
      expect({ labels: await count('topic_labels'), sentences: await count('dossier_sentences') }).toEqual(before);
      // And it is the team index that answers: a topic renamed there is listed so by the team path only.
      await admin.query("UPDATE topics SET name = 'TODO on the team' WHERE name = 'TODO'");
      const names = async (run: WeftRun) => (JSON.parse(run.stdout) as { name: string }[]).map((each) => each.name);
      expect(await names(await team(['topics', 'list', '--json']))).toContain('TODO on the team');
      expect(await names(await local(['topics', 'list', '--json']))).toContain('TODO');
      const labelled = JSON.parse((await team(['topics', 'labels', 'TODO on the team', '--json'])).stdout) as {
        turns: { found: boolean }[];
      };
      expect(labelled.turns.length).toBeGreaterThan(0);
      expect(labelled.turns.every((turn) => turn.found)).toBe(true);
      expect((await local(['topics', 'labels', 'TODO on the team'])).code).not.toBe(0);
      await admin.query("UPDATE topics SET name = 'TODO' WHERE name = 'TODO on the team'");
      // Neither the struck sentence nor the profile is anywhere on the team index.
      const tables = (
        await admin.query<{ name: string }>(
          "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
        )
      ).rows.map((row) => row.name);
      expect(tables).toContain('dossier_sentences');
      for (const table of tables) {
        const hits = await admin.query(`SELECT 1 FROM ${table} t WHERE t::text LIKE $1 OR t::text LIKE $2 LIMIT 1`, [
          `%${profileMarker}%`,
          `%${struck}%`,
        ]);
        expect({ table, rows: hits.rowCount }).toEqual({ table, rows: 0 });
      }
    } finally {
      await admin.end();
    }
  }, 240_000);

  it('a team index that is not PostgreSQL is a usage error, and the string is not echoed', async () => {
    const run = await runWeftInProcess(['why', 'x', '--json'], {
      cwd: space.directory,
      env: { ...env(), WEFT_DATABASE_URL: 'mysql://ana:s3cret-9b1@db.lab.example/weft' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/must be a postgres:\/\//);
    expect(run.stdout + run.stderr).not.toContain('s3cret-9b1');
    // --db names where --push sends: alone it is a usage error, and the string is not echoed either.
    const alone = await runWeftInProcess(['index', '--db', teamUrl], { cwd: space.directory, env: env() });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/add --push/);
    expect(alone.stdout + alone.stderr).not.toContain(new URL(teamUrl).password);
  });

  it('weft status: the same counts and parse reports; the location names the server without credentials', async () => {
    const [sqlite, postgres] = [await local(['status', '--json']), await team(['status', '--json'])];
    const fromSqlite = JSON.parse(sqlite.stdout) as Record<string, unknown>;
    const fromPostgres = JSON.parse(postgres.stdout) as Record<string, unknown>;
    expect(fromPostgres.databasePath).toBe(`postgres://127.0.0.1:${server.port}/contract`);
    expect(fromPostgres.databaseBytes).toBeGreaterThan(0);
    for (const engineOwn of ['databasePath', 'databaseBytes']) {
      delete fromSqlite[engineOwn];
      delete fromPostgres[engineOwn];
    }
    expect(fromPostgres).toEqual(fromSqlite);
    expect((fromPostgres as { turns: number }).turns).toBeGreaterThan(10);
    const text = await team(['status']);
    expect(text.stdout).toContain(`index     postgres://127.0.0.1:${server.port}/contract`);
    expect(text.stdout + text.stderr).not.toContain(new URL(teamUrl).password);
  });

  it('the MCP tools why_check, why_file, find, recall_turn, list_topics and read_dossier answer the same text from either engine', async () => {
    const connect = async (url?: string) => {
      const client = new Client({ name: 'weft-contract', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [WEFT_BIN, 'mcp'],
          env: env(url),
          cwd: space.directory,
          stderr: 'pipe',
        }),
      );
      return client;
    };
    const [sqlite, postgres] = [await connect(), await connect(teamUrl)];
    try {
      const text = async (client: Client, name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        return { isError: result.isError ?? false, text: (result.content as { text: string }[])[0]!.text };
      };
      const database = new Database(join(space.weftHome, 'index.db'), { readonly: true });
      const paths = (
        database.prepare('SELECT DISTINCT path FROM touches ORDER BY path').all() as { path: string }[]
      ).map((row) => row.path);
      const keys = (
        database
          .prepare(
            'SELECT t.turn_key AS key, s.session_id AS session, t.number FROM turns t JOIN sessions s ON s.id = t.session_row ORDER BY t.id',
          )
          .all() as { key: string; session: string; number: number }[]
      ).filter((_, at, all) => at % Math.ceil(all.length / 8) === 0);
      database.close();
      const calls: [string, Record<string, unknown>][] = [
        ...paths
          .filter((_, at) => at % Math.ceil(paths.length / 12) === 0)
          .flatMap((path): [string, Record<string, unknown>][] => [
            ['why_check', { path }],
            ['why_file', { path, include_read: true }],
          ]),
        ['why_file', { path: '/nowhere/never-touched.ts' }],
        ['find', { phrase: 'unchecked items' }],
        ['find', { phrase: '优化仓库', in: 'q' }],
        ['find', { phrase: 'file', in: 'm', limit: 3 }],
        ['find', { phrase: '!!!' }],
        ...keys.flatMap((row): [string, Record<string, unknown>][] => [
          ['recall_turn', { session: row.key }],
          ['recall_turn', { session: row.session.slice(0, 8), turn: row.number }],
        ]),
        ['recall_turn', { session: 'claude-code:no-such-session#no-such-turn' }],
        ['list_topics', {}],
        ['read_dossier', { topic: 'TODO' }],
        ['read_dossier', { topic: 'hello' }],
        ['read_dossier', { topic: 'no-such-topic' }],
      ];
      let answered = 0;
      for (const [name, args] of calls) {
        const expected = await text(sqlite, name, args);
        expect({ name, args, ...(await text(postgres, name, args)) }).toEqual({ name, args, ...expected });
        if (!expected.isError && expected.text !== '[]') answered += 1;
      }
      expect(answered).toBeGreaterThan(calls.length / 2);
      // And it is the team index that answers: a path whose touches leave it answers there, not from SQLite.
      const gone = paths.find((path) => path.startsWith('/'))!;
      const admin = new pg.Client({ connectionString: teamUrl });
      await admin.connect();
      await admin.query('DELETE FROM touches WHERE path = $1', [gone]).finally(() => admin.end());
      expect(JSON.parse((await text(sqlite, 'why_check', { path: gone })).text)).toEqual({ path: gone, history: true });
      expect(JSON.parse((await text(postgres, 'why_check', { path: gone })).text)).toEqual({
        path: gone,
        history: false,
      });
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  }, 120_000);
});
