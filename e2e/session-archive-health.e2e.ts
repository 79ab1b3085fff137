import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAtlasService } from '../server/atlas/atlas-registry.ts';
import { copyAtlasFixtures, type AtlasFixtures } from '../server/atlas/testing/atlas-fixtures.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Settings → Session archive: the copies the Atlas's index made, Verify run through the server, and a copy
// damaged on disk named as the first bad one.
const saved = process.env.WEFT_SESSION_ROOTS;
let fixtures: AtlasFixtures;
let app: LaunchedApp;
const page = () => app.page;

beforeAll(async () => {
  fixtures = copyAtlasFixtures('weft-archive-e2e-');
  process.env.WEFT_SESSION_ROOTS = fixtures.rootsVariable;
  app = await launchApp({ home: fixtures.weftHome });
});
afterAll(async () => {
  if (app) await closeAtlasService(app.server.context).catch(() => undefined);
  await app?.close();
  if (saved === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = saved;
  fixtures?.dispose();
});

const verdict = () => page().getByTestId('archive-health-verdict');

describe('Settings: the session archive’s health', () => {
  it('shows the copies, verifies them on the server, and names a damaged copy', async () => {
    // The Atlas indexes the sessions, and the archive copies them as it reads.
    await page().getByTestId('tab-atlas').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="atlas-session"]').length > 0);
    await page().getByTestId('tab-settings').click();
    await page().getByTestId('archive-health-usage').waitFor();
    const usage = await page().getByTestId('archive-health-usage').textContent();
    const copies = Number(/^(\d+) copies/.exec(usage ?? '')?.[1]);
    expect(copies).toBeGreaterThan(0);
    expect(await verdict().textContent()).toBe('Never verified.');

    await page().getByTestId('archive-verify').click();
    await page().waitForFunction(() =>
      document.querySelector('[data-testid="archive-health-verdict"]')?.textContent?.startsWith('Verified'),
    );
    expect(await verdict().textContent()).toMatch(new RegExp(`: ${copies} copies intact\\.$`));

    const folder = join(fixtures.weftHome, 'archive', 'codex');
    const name = readdirSync(folder).find((candidate) => candidate.endsWith('.json'))!;
    const { path } = JSON.parse(readFileSync(join(folder, name), 'utf8')) as { path: string };
    const copy = join(folder, name.replace(/\.json$/, '.jsonl.gz'));
    writeFileSync(copy, readFileSync(copy).subarray(0, 30));
    await page().getByTestId('archive-verify').click();
    await page().waitForFunction(() =>
      document.querySelector('[data-testid="archive-health-verdict"]')?.hasAttribute('data-bad'),
    );
    expect(await verdict().textContent()).toContain(`1 bad. First bad: ${path} — its copy is 30 bytes`);
  });
});
