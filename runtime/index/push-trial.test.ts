import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../tests/support/postgres-server.ts';
import { CLAUDE_HELLO, copyFixtures, type FixtureWorkspace } from './fixture-roots.ts';
import { PostgresIndex } from './postgres-index.ts';
import { WhyIndex } from './why-index.ts';

/**
 * Issue 32.2 with real processes and a real server: machines pushing at once lose nothing and duplicate nothing,
 * and a push SIGKILLed inside a transaction, run again, leaves exactly what an uninterrupted push leaves.
 */
const CHILD = join(import.meta.dirname, 'push-trial-child.ts');
const MACHINES = 8;

let server: PostgresServer;
let space: FixtureWorkspace;
/** Each machine's WEFT_HOME, its index built from the shared roots (the same paths everywhere) and its own. */
const homes: string[] = [];
const ownRoots: string[] = [];
// BIGINT as numbers, as better-sqlite3 gives them: the dumps of both engines compare as they are.
pg.types.setTypeParser(20, Number);

function sessionFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(folder, name))
    .sort();
}

/** Machine `m`'s own sessions: some of the fixtures with session ids of its own, so their turn keys are new. */
function ownRoot(m: number): string {
  const root = join(space.directory, `machine-${m}`, 'sessions');
  const files = sessionFiles(space.roots[1]!).filter((_, at) => at % MACHINES === m || at % 3 === m % 3);
  for (const [at, file] of files.entries()) {
    const text = readFileSync(file, 'utf8').replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
      (id) => `${id.slice(0, 24)}${String(m).padStart(4, '0')}${id.slice(28)}`,
    );
    const target = join(root, file.slice(space.roots[1]!.length + 1).replace(/\.jsonl$/, `-m${m}-${at}.jsonl`));
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, text);
  }
  return root;
}

/** Machine `m`'s index brought up to date with its roots (the shared ones and its own). */
async function indexMachine(m: number): Promise<{ appendReads: number }> {
  const index = WhyIndex.open({
    env: { ...space.env, WEFT_HOME: homes[m], WEFT_SESSION_ROOTS: [space.roots[0]!, ownRoots[m]!].join(':') },
  });
  try {
    return await index.index();
  } finally {
    index.close();
  }
}

interface Pushed {
  code: number | null;
  signal: NodeJS.Signals | null;
  summary: { sources: { pushed: number; unchanged: number; removed: number }; rows: Record<string, number> } | null;
}

function push(home: string, url: string, killAt = 0): Promise<Pushed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      // The connection string goes by environment, never on a command line others can list.
      env: {
        ...process.env,
        WEFT_HOME: home,
        WEFT_DATABASE_URL: url,
        WEFT_PUSH_TRIAL_KILL_AT: String(killAt),
        WEFT_MACHINE_NAME: home.split('/').at(-2),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0 && signal === null) reject(new Error(`push failed (${code}): ${err}`));
      else resolve({ code, signal, summary: code === 0 ? (JSON.parse(out) as Pushed['summary']) : null });
    });
  });
}

const DUMPS = {
  sources: 'SELECT src.path, src.kind, src.bytes_read FROM sources src',
  sessions: 'SELECT src.path, s.session_id, s.title FROM sessions s JOIN sources src ON src.id = s.source_id',
  turns: `SELECT src.path, t.turn_key, t.number, t.user_text, t.assistant_text, t.steps
          FROM turns t JOIN sessions s ON s.id = t.session_row JOIN sources src ON src.id = s.source_id`,
  touches: 'SELECT t.turn_key, x.path, x.name, x.op FROM touches x JOIN turns t ON t.id = x.turn_id',
  urls: 'SELECT t.turn_key, x.url FROM urls x JOIN turns t ON t.id = x.turn_id',
  papers: 'SELECT t.turn_key, x.kind, x.identifier FROM papers x JOIN turns t ON t.id = x.turn_id',
  materials: 'SELECT src.path, m.title, m.text, m.turn_key FROM materials m JOIN sources src ON src.id = m.source_id',
  cjk_texts: `SELECT c.field, c.text, coalesce(t.turn_key, m.turn_key) AS key FROM cjk_texts c
              LEFT JOIN turns t ON t.id = c.turn_id LEFT JOIN materials m ON m.id = c.material_id`,
} as const;

type Dump = Record<keyof typeof DUMPS, string[]>;

/** Every row of one machine's index by content (ids left out), sorted: what both engines must agree on. */
function localDump(home: string): Dump {
  const database = new Database(join(home, 'index.db'), { readonly: true });
  try {
    const dump = {} as Dump;
    for (const [table, sql] of Object.entries(DUMPS) as [keyof Dump, string][])
      dump[table] = database
        .prepare(sql)
        .raw(true)
        .all()
        .map((row) => JSON.stringify(row))
        .sort();
    return dump;
  } finally {
    database.close();
  }
}

async function teamDump(client: pg.Client, machine: string): Promise<Dump> {
  const dump = {} as Dump;
  for (const [table, sql] of Object.entries(DUMPS) as [keyof Dump, string][]) {
    const alias = /FROM \w+ (\w+)/.exec(sql)![1];
    const result = await client.query({
      text: `${sql} WHERE ${alias}.machine = $1`,
      values: [machine],
      rowMode: 'array',
    });
    dump[table] = (result.rows as unknown[][]).map((row) => JSON.stringify(row)).sort();
  }
  return dump;
}

const machineId = (home: string) => (JSON.parse(readFileSync(join(home, 'machine.json'), 'utf8')) as { id: string }).id;

async function connected<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  server = await startPostgres();
  space = copyFixtures('weft-push-trial-');
  for (let m = 0; m < MACHINES; m += 1) {
    homes.push(join(space.directory, `machine-${m}`, 'weft-home'));
    ownRoots.push(ownRoot(m));
    await indexMachine(m);
  }
}, 180_000);

afterAll(() => {
  server?.stop();
  if (space) rmSync(space.directory, { recursive: true, force: true });
});

describe('weft index --push from several machines (issue 32.2)', () => {
  it('ten pushers at once (two machines pushing twice) hold the union of their indexes, nothing twice', async () => {
    const url = await server.createDatabase('ten_pushers');
    const pushers = [...homes, homes[0]!, homes[1]!];
    const names = homes.map((_, m) => `machine-${m}`);
    const results = await Promise.all(pushers.map((home) => push(home, url)));
    expect(results.every((result) => result.code === 0)).toBe(true);
    await connected(url, async (client) => {
      const total = (table: string) =>
        client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`).then((r) => Number(r.rows[0]!.n));
      const expected = homes.map(localDump);
      for (const table of Object.keys(DUMPS) as (keyof Dump)[])
        expect({ table, rows: await total(table) }).toEqual({
          table,
          rows: expected.reduce((sum, dump) => sum + dump[table].length, 0),
        });
      for (const [at, home] of homes.entries()) expect(await teamDump(client, machineId(home))).toEqual(expected[at]);
      // The shared roots' turns are on every machine, each machine's own on it alone; each named once per machine.
      const shared = await client.query('SELECT turn_key FROM turns GROUP BY turn_key HAVING count(*) = $1', [
        MACHINES,
      ]);
      expect(shared.rows.length).toBeGreaterThan(0);
      const machines = await client.query<{ name: string }>('SELECT name FROM machines ORDER BY name');
      expect(machines.rows.map((row) => row.name)).toEqual(names);
    });
    // Answers name the machines a turn was pushed from: the shared roots' turns all eight, one hit each.
    const team = await PostgresIndex.open(url);
    try {
      const { hits } = await team.why([{ kind: 'path', path: CLAUDE_HELLO }]);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(hit.machines?.map((each) => each.name)).toEqual(names);
      const found = await team.findPhrase('hello', { limit: 50 });
      expect(found.length).toBeGreaterThan(0);
      expect(new Set(found.map((hit) => `${hit.field} ${hit.turnKey}`)).size).toBe(found.length);
      expect(found.every((hit) => (hit.machines?.length ?? 0) > 0)).toBe(true);
      // Eight machines' rows of one turn fold into one hit, and still `limit` hits come back.
      const common = await team.findPhrase('the', { in: 'question', limit: 6 });
      expect(common.length).toBe(6);
      expect(new Set(common.map((hit) => hit.turnKey)).size).toBe(6);
    } finally {
      await team.close();
    }
    // A second round adds nothing: every source is already there.
    const again = await Promise.all(homes.map((home) => push(home, url)));
    for (const result of again) {
      expect(result.summary!.sources.pushed).toBe(0);
      expect(result.summary!.rows.turns).toBe(0);
    }
  }, 240_000);

  it('a push killed inside a transaction and run again leaves what an uninterrupted push leaves', async () => {
    const [killed, clean] = [await server.createDatabase('killed'), await server.createDatabase('clean')];
    const home = homes[2]!;
    const first = await push(home, killed, 3);
    expect(first.signal).toBe('SIGKILL');
    const second = await push(home, killed, 2);
    expect(second.signal).toBe('SIGKILL');
    const rerun = await push(home, killed);
    const whole = await push(home, clean);
    // Two sources were committed before the kills (one each); the re-run sends the rest, nothing twice.
    expect(rerun.summary!.sources.unchanged).toBe(3);
    expect(rerun.summary!.sources.pushed).toBe(whole.summary!.sources.pushed - 3);
    const dumps = await Promise.all(
      [killed, clean].map((url) => connected(url, (client) => teamDump(client, machineId(home)))),
    );
    expect(dumps[0]).toEqual(dumps[1]);
    expect(dumps[0]).toEqual(localDump(home));
  }, 120_000);

  it('a session file that grew sends only its rewritten last turn and the new ones', async () => {
    const url = await server.createDatabase('append');
    const m = 3;
    const home = homes[m]!;
    // Half of a session of many turns (ids of its own on this machine), pushed; then the rest of it.
    const transcript = 'claude-code/marot-spotter/test/fixtures/transcripts/tool_heavy.jsonl';
    const lines = readFileSync(join(space.roots[1]!, transcript), 'utf8')
      .replace(
        /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
        (id) => `${id.slice(0, 24)}0000000000a3`,
      )
      .split(/(?<=\n)/);
    const file = join(ownRoots[m]!, transcript.replace('.jsonl', '-growing.jsonl'));
    const half = Math.ceil(lines.length / 2);
    writeFileSync(file, lines.slice(0, half).join(''));
    await indexMachine(m);
    expect((await push(home, url)).code).toBe(0);
    appendFileSync(file, lines.slice(half).join(''));
    expect((await indexMachine(m)).appendReads).toBe(1);
    const grown = await push(home, url);
    expect(grown.summary!.sources.pushed).toBe(1);
    expect(grown.summary!.rows.sources ?? 0).toBe(0);
    const turns = localDump(home).turns.filter((row) => row.includes(file)).length;
    expect(turns).toBeGreaterThan(2);
    expect(grown.summary!.rows.turns).toBeGreaterThan(0);
    expect(grown.summary!.rows.turns).toBeLessThan(turns);
    expect(await connected(url, (client) => teamDump(client, machineId(home)))).toEqual(localDump(home));
  }, 120_000);
});
