import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_MULTI_SESSION } from '../server/atlas/testing/atlas-fixtures.ts';
import { emptyCanvasDocument } from '../src/core/index.ts';
import { launchAtlasApp, type AtlasApp } from './support/atlas-app.ts';

// The Why panel over the real fixture sessions: a path as a person types it in a repository, and a session
// that is also mirrored on a canvas.
let atlas: AtlasApp;
const page = () => atlas.app.page;

beforeAll(async () => {
  atlas = await launchAtlasApp();
  await page().locator('[data-testid="node-card"]').first().waitFor();
}, 120_000);
afterAll(async () => {
  await atlas?.close();
});

async function askWhy(target: string): Promise<{ turnKey: string; path: string; text: string }[]> {
  if (!(await page().getByTestId('why-view').isVisible())) await page().getByTestId('tab-why').click();
  const [response] = await Promise.all([
    page().waitForResponse((candidate) => candidate.url().includes('/api/atlas/why?')),
    (async () => {
      await page().getByTestId('why-input').fill(target);
      await page().getByTestId('why-ask').click();
    })(),
  ]);
  expect(response.ok()).toBe(true);
  await page().getByTestId('why-summary').waitFor();
  return page()
    .getByTestId('why-hit')
    .evaluateAll((items) =>
      items.map((item) => ({
        turnKey: item.getAttribute('data-turn-key') ?? '',
        path: item.querySelector('.why-path')?.textContent ?? '',
        text: item.textContent ?? '',
      })),
    );
}

describe('the Why panel', () => {
  it('finds the turns behind a repo-relative path, resolved against the sessions’ working directories', async () => {
    const hits = await askWhy('src/hello.ts');
    expect(new Set(hits.map((hit) => hit.path))).toEqual(
      new Set(
        ['claude', 'codex', 'pi'].map((runner) => `/tmp/realsessions/out/${runner}/basic-tools/repo/src/hello.ts`),
      ),
    );
  });

  // The canvas's record is indexed too, with its working directory; the panel also sends it with the question,
  // for a canvas not saved to disk yet.
  it("resolves it against the open canvas's working directory too", async () => {
    const document = emptyCanvasDocument({
      id: 'canvas-in-a-repo',
      name: 'Basic tools work',
      workingDirectory: '/tmp/realsessions/out/claude/basic-tools',
      createdAt: 1,
    });
    await page().evaluate(
      (raw) =>
        (
          window as unknown as { weft: { store: { getState(): { importDocument(raw: unknown): Promise<unknown> } } } }
        ).weft.store
          .getState()
          .importDocument(raw),
      document,
    );
    const hits = await askWhy('repo/src/hello.ts');
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits.map((hit) => hit.path))).toEqual(
      new Set(['/tmp/realsessions/out/claude/basic-tools/repo/src/hello.ts']),
    );
  });

  it('lists a mirrored turn once, not once for the session and once for its canvas copy', async () => {
    const target = '/tmp/realsessions/out/codex/multi-turn/repo/TODO.md';
    const before = await askWhy(target);
    expect(before.length).toBeGreaterThan(0);

    await page().getByTestId('tab-atlas').click();
    await page().locator(`[data-testid="atlas-session"][data-session-id="${CODEX_MULTI_SESSION}"]`).click();
    const detail = page().locator(`[data-testid="session-detail"][data-session-id="${CODEX_MULTI_SESSION}"]`);
    await detail.getByTestId('session-turn').first().waitFor();
    await detail.getByTestId('mirror-new').click();
    await page().getByTestId('atlas-view').waitFor({ state: 'detached' });
    await page().locator('[data-testid="node-card"]').first().waitFor();
    // The mirror canvas's durable record is what the why index reads.
    await page().evaluate(() =>
      (window as unknown as { weft: { store: { getState(): { flush(): Promise<void> } } } }).weft.store
        .getState()
        .flush(),
    );

    const after = await askWhy(target);
    expect(after.map((hit) => hit.turnKey)).toEqual(before.map((hit) => hit.turnKey));
    expect(after.some((hit) => hit.turnKey.startsWith('canvas:'))).toBe(false);
    expect(atlas.app.pageErrors).toEqual([]);
  });
});
