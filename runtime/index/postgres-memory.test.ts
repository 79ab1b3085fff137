import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentKey, isPutAside } from '../../src/core/index.ts';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../../tests/support/postgres-server.ts';
import { PutAsideStore, readPutAsides } from '../fs/index.ts';
import { CLAUDE_MULTI_TURN, copyFixtures, type FixtureWorkspace } from './fixture-roots.ts';
import { postgresReader, sqliteReader } from './index-reader.ts';
import { readMachineIdentity } from './machine-identity.ts';
import { PostgresIndex } from './postgres-index.ts';
import type { PushOptions, PushSummary } from './push-index-to-postgres.ts';
import { pushMemoryToPostgres } from './push-memory-to-postgres.ts';
import { WhyIndex } from './why-index.ts';

/**
 * Issue 32 on two machines: a turn only the other machine indexed is recalled from the team index (naming the
 * machines), and a put-aside is by content: the other machine's turn asking the words this person put aside is
 * left out of why, find and recall, though this machine's index has no row with its key.
 */
const OTHER_SESSION = '9d1e7c3a-5b2f-4e8d-a6c1-3f0b2e4d6a81';
const TODO = '/tmp/realsessions/out/claude/multi-turn/repo/TODO.md';
const PUT_ASIDE_QUESTION = 'Mark the first item as done and show me the file. [multi-turn:2]';

let server: PostgresServer;
let space: FixtureWorkspace;
let url: string;
let otherRoot: string;
let lastPush: PushSummary | null = null;

/** A machine's index of `roots` in its own WEFT_HOME, pushed to the team index as `name`. */
async function indexAndPush(home: string, roots: string[], name: string, options: PushOptions = {}): Promise<WhyIndex> {
  const env = { ...space.env, WEFT_HOME: home, WEFT_SESSION_ROOTS: roots.join(':'), WEFT_MACHINE_NAME: name };
  const index = WhyIndex.open({ env });
  await index.index();
  const team = await PostgresIndex.open(url);
  try {
    lastPush = await team.push(index.database, readMachineIdentity(home, env), options);
  } finally {
    await team.close();
  }
  return index;
}

beforeAll(async () => {
  server = await startPostgres();
  space = copyFixtures('weft-team-memory-');
  url = await server.createDatabase('memory');
  // The other machine ran the multi-turn session under another id: the same words, keys this machine never saw.
  otherRoot = join(space.directory, 'other', 'sessions');
  const target = join(otherRoot, 'claude', `${OTHER_SESSION}.jsonl`);
  mkdirSync(join(target, '..'), { recursive: true });
  writeFileSync(
    target,
    readFileSync(join(space.roots[0]!, CLAUDE_MULTI_TURN), 'utf8').replaceAll(
      '4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b',
      OTHER_SESSION,
    ),
  );
}, 120_000);

afterAll(() => {
  server?.stop();
  if (space) rmSync(space.directory, { recursive: true, force: true });
});

describe('recall and put-asides on the team index (issue 32)', () => {
  it("recalls the other machine's turn naming its machine, and leaves out the words put aside here", async () => {
    const here = await indexAndPush(join(space.directory, 'home-here'), [space.roots[1]!], 'laptop');
    const there = await indexAndPush(join(space.directory, 'home-there'), [otherRoot], 'workstation');
    const team = await PostgresIndex.open(url);
    try {
      const reader = postgresReader(here, team);
      const rows = new Database(join(space.directory, 'home-there', 'index.db'), { readonly: true });
      const keys = rows.prepare('SELECT turn_key AS key, user_text AS question FROM turns ORDER BY number').all() as {
        key: string;
        question: string;
      }[];
      rows.close();
      const [first, second] = keys;
      expect(second?.question).toBe(PUT_ASIDE_QUESTION);
      // This machine's own index does not hold the other machine's turns; the team index does.
      expect(() => here.recall({ turnKey: first!.key })).toThrow(/no turn/);
      const recalled = await reader.recall({ turnKey: first!.key });
      expect(recalled).toEqual({
        ...there.recall({ turnKey: first!.key }),
        machines: [expect.objectContaining({ name: 'workstation' })],
      });
      expect((await reader.recall({ sessionId: OTHER_SESSION.slice(0, 8), turn: 2 })).question).toBe(
        PUT_ASIDE_QUESTION,
      );
      const found = await reader.find('Mark the first item as done', { in: 'question' });
      expect(found.map((hit) => hit.turnKey)).toContain(second!.key);
      const why = await reader.why(TODO, { cwd: '/' });
      expect(why.hits.map((hit) => hit.turnKey)).toContain(second!.key);

      // This person puts those words aside (on a turn of their own, long gone): a tombstone keyed on content.
      await new PutAsideStore(here.weftHome).append([
        {
          op: 'put-aside',
          key: contentKey('session-turn', PUT_ASIDE_QUESTION),
          kind: 'session-turn',
          reason: 'archived',
          at: 1,
          origin: null,
        },
      ]);
      expect(here.turnLookup().putAside(second!.key)).toBe(false); // Not by key: this machine never indexed it.
      const after = await reader.find('Mark the first item as done', { in: 'question' });
      expect(after.map((hit) => hit.turnKey)).not.toContain(second!.key);
      const whyAfter = await reader.why(TODO, {
        cwd: '/',
      });
      expect(whyAfter.hits.map((hit) => hit.turnKey)).not.toContain(second!.key);
      expect(whyAfter.putAside).toBeGreaterThan(0);
      await expect(reader.recall({ turnKey: second!.key })).rejects.toThrow(/put aside/);
      await expect(reader.recall({ sessionId: OTHER_SESSION, turn: 2 })).rejects.toThrow(/put aside/);
      // The other turns of that session still answer; the local engine agrees on its own turns.
      expect((await reader.recall({ turnKey: first!.key })).turnKey).toBe(first!.key);
      expect(await sqliteReader(there).find('Mark the first item as done', { in: 'question' })).not.toEqual([]);
      there.close();
      here.close();
    } finally {
      await team.close();
    }
  }, 120_000);

  it('a session turn put aside is never pushed, and one pushed before leaves the team index at the next push', async () => {
    const putAside = (home: string) =>
      new PutAsideStore(home).append([
        {
          op: 'put-aside',
          key: contentKey('session-turn', PUT_ASIDE_QUESTION),
          kind: 'session-turn',
          reason: 'archived',
          at: 2,
          origin: null,
        },
      ]);
    const options = (home: string): PushOptions => ({
      sessionTurnPutAside: (text) => isPutAside(readPutAsides(home), 'session-turn', text),
    });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const held = async (machine: string) =>
      (
        await admin.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM turns t JOIN machines m ON m.machine = t.machine WHERE m.name = $1 AND t.user_text = $2',
          [machine, PUT_ASIDE_QUESTION],
        )
      ).rows[0]!.n;
    try {
      // The workstation pushed the turn in the first test; put aside there now, the next push takes it back.
      const thereHome = join(space.directory, 'home-there');
      expect(await held('workstation')).toBe(1);
      await putAside(thereHome);
      (await indexAndPush(thereHome, [otherRoot], 'workstation', options(thereHome))).close();
      expect(await held('workstation')).toBe(0);
      const total = (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM turns')).rows[0]!.n;
      (await indexAndPush(thereHome, [otherRoot], 'workstation', options(thereHome))).close();
      expect((await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM turns')).rows[0]!.n).toBe(total);
      // A machine that put the words aside before its first push never sends them; its other turns go.
      const fresh = join(space.directory, 'home-fresh');
      await putAside(fresh);
      const cluster = await indexAndPush(fresh, [otherRoot], 'cluster', options(fresh));
      const local = (cluster.database.prepare('SELECT count(*) AS n FROM turns').get() as { n: number }).n;
      cluster.close();
      expect(await held('cluster')).toBe(0);
      expect(lastPush?.rows.turns).toBe(local - 1); // Not sent and taken back: never sent.
      const others = await admin.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM turns t JOIN machines m ON m.machine = t.machine WHERE m.name = 'cluster'",
      );
      expect(others.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
  }, 120_000);

  it('a dossier version of a topic id two machines share is read from one machine, its sentences only', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const dossier = (text: string) => ({
      format: 'weft.dossier' as const,
      topicId: 't-shared',
      version: 1,
      writtenAt: 1,
      sections: { what: [{ id: 'a', text, citations: [] }], decisions: [], status: [], open: [] },
    });
    const memory = (text: string) => ({
      topics: null,
      dossiers: [dossier(text)],
      turnPutAside: () => false,
      sentenceStruck: () => false,
    });
    try {
      await admin.query("INSERT INTO machines VALUES ('m-a', 'a', 'ana', 1, 1), ('m-b', 'b', 'bo', 1, 1)");
      await pushMemoryToPostgres(admin, { id: 'm-b', name: 'b', person: 'bo' }, memory('From machine b.'));
      await pushMemoryToPostgres(admin, { id: 'm-a', name: 'a', person: 'ana' }, memory('From machine a.'));
    } finally {
      await admin.end();
    }
    const team = await PostgresIndex.open(url);
    try {
      const versions = await team.memory().dossierVersions('t-shared');
      expect(versions.map((version) => version.sections.what.map((sentence) => sentence.text))).toEqual([
        ['From machine a.'],
      ]);
    } finally {
      await team.close();
    }
  });
});
