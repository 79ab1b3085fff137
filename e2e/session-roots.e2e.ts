import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAtlasService } from '../server/atlas/atlas-registry.ts';
import { copyAtlasFixtures, hashTree, type AtlasFixtures } from '../server/atlas/testing/atlas-fixtures.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// A newcomer whose sessions live elsewhere: Settings → Session Atlas roots, a pasted folder of real Claude Code
// sessions, its runner and count on the row, its sessions in the Atlas, then removed again. HOME points at an empty
// folder (the runners' default roots hold nothing) and WEFT_SESSION_ROOTS is unset, so Settings decides.
const saved = { HOME: process.env.HOME, WEFT_SESSION_ROOTS: process.env.WEFT_SESSION_ROOTS };
let fixtures: AtlasFixtures;
let app: LaunchedApp;
let claudeRoot: string;
const page = () => app.page;

beforeAll(async () => {
  fixtures = copyAtlasFixtures('weft-roots-e2e-');
  claudeRoot = join(fixtures.sessions, 'claude');
  const personHome = join(fixtures.directory, 'person-home');
  mkdirSync(personHome);
  process.env.HOME = personHome;
  delete process.env.WEFT_SESSION_ROOTS;
  app = await launchApp({ home: fixtures.weftHome });
});
afterAll(async () => {
  if (app) await closeAtlasService(app.server.context).catch(() => undefined);
  await app?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  fixtures?.dispose();
});

const rootRow = (path: string) => page().locator(`[data-testid="session-root"][data-path="${path}"]`);

async function openAtlas(): Promise<void> {
  await page().getByTestId('tab-atlas').click();
  await page().getByTestId('atlas-view').waitFor();
}

describe('Settings: the Session Atlas roots', () => {
  it('adds a sessions folder, shows its runner and count, lists its sessions in the Atlas, and removes it', async () => {
    const before = hashTree(claudeRoot);
    await page().getByTestId('tab-settings').click();
    const section = page().getByTestId('session-roots-settings');
    await section.getByTestId('session-root').first().waitFor();
    // Before any choice: the three runners' folders (empty here) and Weft's agent lane.
    expect(await section.getByTestId('session-root').count()).toBe(4);

    // A folder inside Weft's own home is refused in words (its code on hover), and nothing is added.
    await section.getByTestId('session-root-path').fill(fixtures.weftHome);
    await section.getByTestId('add-session-root').click();
    await page().waitForFunction(() =>
      document
        .querySelector('[data-testid="session-roots-message"]')
        ?.getAttribute('title')
        ?.startsWith('session-root-'),
    );
    const refusal = section.getByTestId('session-roots-message');
    expect(await refusal.getAttribute('title')).toBe('session-root-in-weft-home');
    expect(await refusal.textContent()).not.toContain('session-root-in-weft-home');
    expect(await section.getByTestId('session-root').count()).toBe(4);

    await section.getByTestId('session-root-path').fill(claudeRoot);
    await section.getByTestId('add-session-root').click();
    await rootRow(claudeRoot).waitFor();
    expect(await rootRow(claudeRoot).getByTestId('session-root-runners').textContent()).toBe('Claude Code');
    expect(await rootRow(claudeRoot).getByTestId('session-root-sessions').textContent()).toBe('5');
    expect(await section.getByTestId('session-root-path').inputValue()).toBe('');

    // The Atlas lists the folder's sessions without a restart.
    await openAtlas();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="atlas-session"]').length === 5);
    expect(await page().getByTestId('runner-claude-code').textContent()).toContain('5');

    await page().getByTestId('tab-settings').click();
    await rootRow(claudeRoot).getByTestId('remove-session-root').click();
    await rootRow(claudeRoot).waitFor({ state: 'detached' });
    expect(await section.getByTestId('session-root').count()).toBe(4);

    await openAtlas();
    await page().waitForFunction(() =>
      document.querySelector('[data-testid="atlas-summary"]')?.textContent?.startsWith('0 of 0 sessions'),
    );
    expect(await page().locator('[data-testid="atlas-session"]').count()).toBe(0);
    expect(hashTree(claudeRoot)).toEqual(before);
    // The one refused add is the only failed request the browser logged.
    expect(app.pageErrors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  });

  it('while WEFT_SESSION_ROOTS is set, the list is its roots, read-only, and says why', async () => {
    process.env.WEFT_SESSION_ROOTS = claudeRoot;
    try {
      await app.reload();
      await page().getByTestId('tab-settings').click();
      const section = page().getByTestId('session-roots-settings');
      await section.getByTestId('session-roots-overridden').waitFor();
      expect(await section.getByTestId('session-roots-overridden').textContent()).toContain('WEFT_SESSION_ROOTS');
      await rootRow(claudeRoot).waitFor();
      expect(await section.getByTestId('session-root').count()).toBe(1);
      expect(await rootRow(claudeRoot).getByTestId('session-root-sessions').textContent()).toBe('5');
      expect(await section.getByTestId('session-root-path').count()).toBe(0);
      expect(await section.getByTestId('remove-session-root').count()).toBe(0);
    } finally {
      delete process.env.WEFT_SESSION_ROOTS;
    }
  });
});
