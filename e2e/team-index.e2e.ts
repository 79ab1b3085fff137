import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grantProject,
  initTeamDatabase,
  PostgresIndex,
  readMachineIdentity,
  WhyIndex,
  withTeamClient,
} from '../runtime/index/index.ts';
import { startPostgres, type PostgresServer } from '../tests/support/postgres-server.ts';
import { launchAtlasApp, type AtlasApp } from './support/atlas-app.ts';

// Issue 32.4 in the real app: Settings → Team index takes a person's connection string (and never shows it again),
// tests it, and the Why panel answers from the team index, labelled, within what that person may read.
let atlas: AtlasApp;
let postgres: PostgresServer;
let anaUrl: string;
let project: string;
let projectPath: string;
const page = () => atlas.app.page;

beforeAll(async () => {
  postgres = await startPostgres();
  atlas = await launchAtlasApp();
  const adminUrl = await postgres.createDatabase('e2e_team');
  const env = { WEFT_HOME: atlas.fixtures.weftHome, WEFT_SESSION_ROOTS: atlas.fixtures.rootsVariable };
  const index = WhyIndex.open({ env });
  try {
    await index.index();
    const team = await PostgresIndex.open(adminUrl);
    await team.push(index.database, readMachineIdentity(atlas.fixtures.weftHome, env)).finally(() => team.close());
  } finally {
    index.close();
  }
  anaUrl = (await withTeamClient(adminUrl, (client) => initTeamDatabase(client, adminUrl, 'ana'))).person!.url;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const row = (
      await client.query<{ cwd: string; path: string }>(
        `SELECT t.cwd, x.path FROM touches x JOIN turns t ON t.id = x.turn_id
         WHERE t.cwd IS NOT NULL AND x.path LIKE '/%' AND x.op IN ('write', 'edit') ORDER BY t.id LIMIT 1`,
      )
    ).rows[0]!;
    project = row.cwd;
    projectPath = row.path;
  } finally {
    await client.end();
  }
  await withTeamClient(adminUrl, (team) => grantProject(team, 'ana', project));
}, 180_000);

afterAll(async () => {
  await atlas?.close();
  postgres?.stop();
});

describe('Settings → Team index and the Why panel (issue 32.4)', () => {
  it('saves the connection string without ever showing it, and the test says what ana may read', async () => {
    await page().getByTestId('tab-settings').click();
    const card = page().getByTestId('team-index-settings');
    await card.waitFor();
    await card.getByTestId('team-index-url').fill(anaUrl);
    // The page's one Save stores it, as it does the web search card.
    await page().getByTestId('save-settings').click();
    const location = `postgres://127.0.0.1:${postgres.port}/e2e_team`;
    await expect.poll(() => card.getByTestId('team-index-location').textContent()).toContain(location);
    expect(await card.getByTestId('team-index-url').inputValue()).toBe('');
    await card.getByTestId('team-index-test').click();
    const check = card.getByTestId('team-index-check');
    await check.waitFor();
    expect(await check.textContent()).toMatch(/Connected\. You can read \d+ turns? in \d+ sessions?/);
    expect(await card.getByTestId('team-index-machines').textContent()).toBeTruthy();
    const password = new URL(anaUrl).password;
    expect(await page().content()).not.toContain(password);
  });

  it('the Why panel asks the team index when ticked, and says so', async () => {
    await page().getByTestId('tab-why').click();
    const toggle = page().getByTestId('why-from-team');
    await toggle.waitFor();
    await toggle.check();
    const [response] = await Promise.all([
      page().waitForResponse((candidate) => candidate.url().includes('/api/atlas/why?')),
      (async () => {
        await page().getByTestId('why-input').fill(projectPath);
        await page().getByTestId('why-ask').click();
      })(),
    ]);
    expect(response.url()).toContain('from=team');
    const label = page().getByTestId('why-team-label');
    await label.waitFor();
    expect(await label.textContent()).toContain(`postgres://127.0.0.1:${postgres.port}/e2e_team`);
    const hits = await page().getByTestId('why-hit').count();
    expect(hits).toBeGreaterThan(0);
    expect(((await response.json()) as { hits: unknown[] }).hits.length).toBe(hits);
    // Unticked, this machine's index answers, without the label.
    await toggle.uncheck();
    await expect.poll(() => page().getByTestId('why-team-label').count()).toBe(0);
  });
});
