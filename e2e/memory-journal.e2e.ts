import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '../protocol/index.ts';
import { chainHeadOf } from '../runtime/fs/index.ts';
import { appendEvent } from '../src/core/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { putSettings } from './support/put-settings.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Memory's journal (issue 27.4) in the browser, on the rule path: the offline receipt model answers.
let app: LaunchedApp;
let canvas: CanvasDriver;

beforeAll(async () => {
  app = await launchApp();
  // These tests are about admission itself: facts skip the Inbox (issue 29.1; e2e/memory-inbox.e2e.ts has the gate).
  expect((await putSettings(app, { memoryAutoAccept: { profileFacts: true } })).status).toBe(200);
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
});

const page = () => app.page;
const entries = () => page().getByTestId('journal-entry');
const selected = () =>
  page().evaluate(
    () =>
      (window as unknown as { weft: { store: { getState(): { selectedNodeIds: string[] } } } }).weft.store.getState()
        .selectedNodeIds,
  );

describe("memory's journal in the browser", () => {
  it('shows an admitted fact and a refused one, filters by verdict, opens the evidence turn and verifies', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Journal');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    const admitted = await canvas.addQuestion('I prefer answers in British English. What is a lift?');
    await canvas.ask(admitted);
    await page().locator('[data-testid="toast"][data-code="memory-admitted"]').waitFor();
    // A request to the model is nothing lasting: refused (not-durable), and the journal records that too.
    const refused = await canvas.addQuestion('I want a regex for dates.');
    await canvas.ask(refused);

    await page().getByTestId('tab-memory').click();
    const journal = page().getByTestId('memory-journal');
    await journal.locator('[data-testid="journal-entry"][data-verdict="refused"]').waitFor();
    const judged = journal.locator('[data-testid="journal-entry"][data-op="memory-judged"][data-verdict="admitted"]');
    expect(await judged.locator('.memory-activity-label').textContent()).toBe(
      'A preference fact from an ask was admitted by the rule path.',
    );
    // Newest first: the refusal came after the admission.
    expect(await entries().first().getAttribute('data-verdict')).toBe('refused');
    expect(await entries().first().locator('.memory-activity-label').getAttribute('title')).toMatch(/^memory-judged /);

    await page().getByTestId('journal-filter-verdict').selectOption('refused');
    await page().waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="journal-entry"]')].every(
        (entry) => entry.getAttribute('data-verdict') === 'refused',
      ),
    );
    expect(await entries().count()).toBe(1);
    // The decision in words; its rule's code is in the tooltip, for bug reports.
    expect(await entries().first().textContent()).toContain('nothing lasting about you');
    expect(await entries().first().textContent()).not.toContain('not-durable');
    expect(await entries().first().locator('.memory-activity-label').getAttribute('title')).toContain(
      'rule: not-durable',
    );

    // The evidence turn: the canvas opens with the admitted question's node selected.
    await page().getByTestId('journal-filter-verdict').selectOption('admitted');
    await judged.waitFor();
    await judged.getByTestId('journal-open').click();
    await page().getByTestId('memory-page').waitFor({ state: 'detached' });
    await page().locator(`[data-testid="node-card"][data-node-id="${admitted}"]`).waitFor();
    expect(await selected()).toEqual([admitted]);

    await page().getByTestId('tab-memory').click();
    await page().getByTestId('journal-verify').click();
    const verdict = page().getByTestId('journal-verify-result');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-intact')).toBe('true');
    expect(await verdict.locator('li').first().textContent()).toMatch(
      /^✓ memory\/journal\.json: Intact: all \d+ events verify and match the chain head\.$/,
    );
  });

  it('windows a long journal: a few rows drawn, the next page read as it scrolls, and it still verifies', async () => {
    // 3,000 topic renames written as the topic store writes them: the chained log and its head beside it.
    const events: EventRecord[] = [];
    for (let index = 0; index < 3000; index += 1)
      events.push(
        appendEvent(
          events,
          { op: 'topic-renamed', objectId: 't1', meta: {} },
          { now: 1_700_000_000_000 + index, newId: () => `r${index}` },
        ),
      );
    const memory = path.join(app.home, 'memory');
    writeFileSync(path.join(memory, 'topics-journal.json'), JSON.stringify({ format: 'weft.topics-journal', events }));
    writeFileSync(
      path.join(memory, 'topics-journal.head.json'),
      JSON.stringify(chainHeadOf('topics-journal', events, null)),
    );

    await page().getByTestId('tab-canvas').click();
    await page().getByTestId('memory-page').waitFor({ state: 'detached' });
    await page().getByTestId('tab-memory').click();
    await page().getByTestId('journal-filter-verdict').waitFor();
    await page().waitForFunction(() =>
      /^3,?0\d\d entries$/.test(document.querySelector('[data-testid="journal-count"]')?.textContent ?? ''),
    );
    expect(await entries().count()).toBeLessThan(60);
    const deepest = () =>
      page().evaluate(() =>
        Math.max(
          ...[...document.querySelectorAll('[data-testid="journal-entry"]')].map((row) =>
            Number(row.getAttribute('data-index')),
          ),
        ),
      );
    // Scrolled to the end of the first page: the next one is read and drawn.
    for (let round = 0; round < 20 && (await deepest()) < 150; round += 1) {
      await page()
        .getByTestId('journal-scroll')
        .evaluate((box) => box.scrollTo(0, box.scrollHeight));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await deepest()).toBeGreaterThanOrEqual(150);
    expect(await entries().count()).toBeLessThan(60);

    await page().getByTestId('journal-verify').click();
    await page().locator('[data-testid="journal-verify-result"] li[data-status="intact"]').nth(1).waitFor();
    expect(await page().getByTestId('journal-verify-result').locator('li').nth(1).textContent()).toBe(
      '✓ memory/topics-journal.json: Intact: all 3000 events verify and match the chain head.',
    );
  });
});
