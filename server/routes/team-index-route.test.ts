import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AtlasWhyResponseSchema, TeamIndexCheckSchema, TeamIndexSettingsSchema } from '../../protocol/index.ts';
import {
  grantProject,
  initTeamDatabase,
  PostgresIndex,
  readMachineIdentity,
  WhyIndex,
  withTeamClient,
} from '../../runtime/index/index.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';
import { startPostgres, type PostgresServer } from '../../tests/support/postgres-server.ts';

/**
 * Settings → Team index (issue 32.4) against a real PostgreSQL server: the connection string is stored like a key
 * and never comes back, the connection test says what this person's role reads, and the Atlas's why answers from
 * the team index, labelled, within the person's grants.
 */
const atlas = withAtlasServer({ prefix: 'weft-team-route-' });
let postgres: PostgresServer;
let adminUrl: string;
let anaUrl: string;
let project: string;

async function query<Row>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

const pgLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** This machine's index of the fixtures, pushed into the team database (what `weft index --push` does). */
async function indexIntoTeam(url: string): Promise<void> {
  const env = { WEFT_HOME: atlas.fixtures.weftHome, WEFT_SESSION_ROOTS: atlas.fixtures.rootsVariable };
  const index = WhyIndex.open({ env });
  try {
    await index.index();
    const team = await PostgresIndex.open(url);
    try {
      await team.push(index.database, readMachineIdentity(atlas.fixtures.weftHome, env));
    } finally {
      await team.close();
    }
  } finally {
    index.close();
  }
}

const json = async (path: string, init?: RequestInit) => {
  const response = await atlas.server.api(path, init);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as unknown };
};
const put = (url: string | null) =>
  json('/api/team-index', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });

beforeAll(async () => {
  postgres = await startPostgres();
  adminUrl = await postgres.createDatabase('app_team');
  await indexIntoTeam(adminUrl);
  anaUrl = (await withTeamClient(adminUrl, (client) => initTeamDatabase(client, adminUrl, 'ana'))).person!.url;
  const cwds = await query<{ cwd: string }>(
    adminUrl,
    'SELECT cwd FROM turns WHERE cwd IS NOT NULL GROUP BY cwd ORDER BY count(*) DESC, cwd',
  );
  expect(cwds.length).toBeGreaterThan(1);
  project = cwds[0]!.cwd;
  await withTeamClient(adminUrl, (client) => grantProject(client, 'ana', project));
}, 180_000);

afterAll(() => postgres?.stop());

describe('Settings → Team index (issue 32.4)', () => {
  it('stores the connection string write-only: responses, logs and the settings never carry it', async () => {
    expect(TeamIndexSettingsSchema.parse((await json('/api/team-index')).body)).toEqual({
      configured: false,
      location: null,
    });
    const stored = await put(anaUrl);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ configured: true, location: `postgres://127.0.0.1:${postgres.port}/app_team` });
    const password = new URL(anaUrl).password;
    for (const path of ['/api/team-index', '/api/settings', '/api/web-search'])
      expect((await json(path)).text).not.toContain(password);
    // Kept with the keys (0600 secrets file), and scrubbed from every log line.
    expect(readFileSync(join(atlas.fixtures.weftHome, 'secrets.json'), 'utf8')).toContain(password);
    expect(atlas.server.logger.lines.join('\n')).not.toContain(password);
    const refused = await json('/api/team-index', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'mysql://ana:pw@127.0.0.1/x' }),
    });
    expect(refused.status).toBe(400);
  });

  it('the connection test says what this role reads and which machines pushed it', async () => {
    await put(anaUrl);
    const check = TeamIndexCheckSchema.parse((await json('/api/team-index/test', { method: 'POST' })).body);
    const [visible] = await query<{ n: number }>(anaUrl, 'SELECT count(*)::int AS n FROM turns');
    const [all] = await query<{ n: number }>(adminUrl, 'SELECT count(*)::int AS n FROM turns');
    expect(check).toMatchObject({ ok: true, message: null, turns: visible!.n });
    expect(check.turns).toBeGreaterThan(0);
    expect(check.turns).toBeLessThan(all!.n);
    expect(check.schemaVersions).toContain(1);
    const [machineColumn] = await query<{ present: boolean }>(
      adminUrl,
      "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'sources' AND column_name = 'machine') AS present",
    );
    // Before per-machine pushes the schema records no machine: shown as such, never invented.
    if (!machineColumn!.present) expect(check.machines).toBeNull();
    else {
      expect(check.machines!.length).toBeGreaterThan(0);
      // Named as it pushed (its host name or WEFT_MACHINE_NAME), with its last push.
      expect(check.machines![0]).toMatchObject({ name: expect.any(String), lastPushAt: expect.any(Number) });
    }
  });

  it('a failed test names the server and the reason, never the password', async () => {
    const wrong = new URL(anaUrl);
    wrong.password = 'not-the-password-5e1';
    await put(wrong.toString());
    const response = await json('/api/team-index/test', { method: 'POST' });
    const check = TeamIndexCheckSchema.parse(response.body);
    expect(check.ok).toBe(false);
    expect(check.message).toContain(`postgres://127.0.0.1:${postgres.port}/app_team`);
    expect(check.message).toMatch(/password authentication failed/);
    expect(response.text).not.toContain('not-the-password-5e1');
    expect(atlas.server.logger.lines.join('\n')).not.toContain('not-the-password-5e1');
  });

  it('the Atlas why answers from the team index, labelled, within the person’s grants', async () => {
    await put(anaUrl);
    // Paths touched inside ana's project and outside it.
    const touched = (where: string) =>
      query<{ path: string }>(
        adminUrl,
        `SELECT DISTINCT x.path FROM touches x JOIN turns t ON t.id = x.turn_id
         WHERE x.path LIKE '/%' AND ${where} ORDER BY x.path LIMIT 8`,
      );
    const own = `(t.cwd = ${pgLiteral(project)} OR t.cwd LIKE ${pgLiteral(`${project}/%`)})`;
    const paths = [...(await touched(own)), ...(await touched(`NOT ${own}`))];
    const inside = (cwd: string | null) => cwd !== null && (cwd === project || cwd.startsWith(`${project}/`));
    let shown = 0;
    let hidden = 0;
    for (const { path } of paths) {
      const target = encodeURIComponent(path);
      const local = AtlasWhyResponseSchema.parse((await json(`/api/atlas/why?target=${target}&includeRead=true`)).body);
      const team = AtlasWhyResponseSchema.parse(
        (await json(`/api/atlas/why?target=${target}&includeRead=true&from=team`)).body,
      );
      expect(local.answeredBy).toBeUndefined();
      expect(team).toMatchObject({
        answeredBy: 'team-index',
        teamLocation: `postgres://127.0.0.1:${postgres.port}/app_team`,
      });
      expect(team.hits).toEqual(local.hits.filter((hit) => inside(hit.cwd)));
      shown += team.hits.length;
      hidden += local.hits.length - team.hits.length;
    }
    expect(shown).toBeGreaterThan(0);
    expect(hidden).toBeGreaterThan(0);
  }, 60_000);

  it('requests share one pool per connection string, closed when the server shuts down', async () => {
    await put(anaUrl);
    const role = new URL(anaUrl).username;
    const backends = () =>
      query<{ pid: number; started: string }>(
        adminUrl,
        `SELECT pid, backend_start::text AS started FROM pg_stat_activity
         WHERE usename = ${pgLiteral(role)} AND datname = 'app_team' ORDER BY pid`,
      );
    const why = async () =>
      expect((await json(`/api/atlas/why?target=${encodeURIComponent(project)}&from=team`)).status).toBe(200);
    await why();
    const first = await backends();
    // The pool keeps its connection after the answer; one opened per request would be closed by now.
    expect(first.length).toBeGreaterThan(0);
    await why();
    expect((await json('/api/team-index/test', { method: 'POST' })).status).toBe(200);
    expect(await backends()).toEqual(first);
    await atlas.restart();
    // Closed with the server: the server's side of each connection is gone within moments.
    const deadline = Date.now() + 5000;
    while ((await backends()).length > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    expect(await backends()).toEqual([]);
  });

  it('forgotten, the team index is refused by name', async () => {
    expect((await put(null)).body).toEqual({ configured: false, location: null });
    const refused = await json('/api/atlas/why?target=%2Fx&from=team');
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('team-index-not-set');
  });
});
