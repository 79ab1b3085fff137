import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryInbox } from '../protocol/index.ts';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Issue 29.1 in the browser, with Settings as a new person has them (facts wait for review) and the rule path:
// the offline receipt model answers on this machine, nothing leaves it.
let app: LaunchedApp;
let canvas: CanvasDriver;

beforeAll(async () => {
  app = await launchApp();
  canvas = new CanvasDriver(app.page);
});
afterAll(async () => {
  await app?.close();
});

const page = () => app.page;
const PREFERENCE = 'I prefer answers in British English.';
const SECOND = 'I use Neovim for everything.';
const proposals = () => page().getByTestId('memory-inbox').getByTestId('memory-proposal');
const lines = () => page().getByTestId('memory-document-preferences').getByTestId('memory-line');

const selected = () =>
  page().evaluate(
    () =>
      (window as unknown as { weft: { store: { getState(): { selectedNodeIds: string[] } } } }).weft.store.getState()
        .selectedNodeIds,
  );

async function showMemory(): Promise<void> {
  if ((await page().getByTestId('memory-page').count()) === 0) await page().getByTestId('tab-memory').click();
  await page().getByTestId('memory-page').waitFor();
}

async function showCanvas(): Promise<void> {
  await page().getByTestId('tab-canvas').click();
  await page().getByTestId('memory-page').waitFor({ state: 'detached' });
}

/** Waits until the server has judged `count` exchanges (its activity list, newest first, as the page reads it). */
async function judgedExchanges(count: number): Promise<void> {
  await page().waitForFunction(async (expected) => {
    const response = await fetch('/api/memory');
    const body = (await response.json()) as { activity: { kind: string }[] };
    return body.activity.length >= expected;
  }, count);
}

async function pendingOnDisk(): Promise<MemoryInbox['pending']> {
  const text = await readFile(path.join(app.home, 'memory', 'inbox.json'), 'utf8').catch(() => null);
  return text === null ? [] : (JSON.parse(text) as MemoryInbox).pending;
}

describe('the Inbox in the browser', () => {
  it('a proposed fact waits, is rejected and never comes back; an accepted one rides the next request', async () => {
    await page().getByTestId('canvas-menu').click();
    await page().getByTestId('canvas-new').click();
    await page().getByTestId('canvas-name').fill('Inbox');
    await page().getByTestId('canvas-name-save').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 0);

    // 1. Proposed: in the Inbox with the person's words and the rule, not in the profile.
    const first = await canvas.addQuestion(`${PREFERENCE} What is a lift?`);
    await canvas.ask(first);
    await page().locator('[data-testid="toast"][data-code="memory-proposed"]').waitFor();
    await showMemory();
    await proposals().first().waitFor();
    expect(await proposals().count()).toBe(1);
    expect(await proposals().first().getByTestId('memory-proposal-text').textContent()).toBe(PREFERENCE);
    const evidence = (await proposals().first().getByTestId('memory-proposal-evidence').textContent())!;
    expect(evidence).toContain(`You said: “${PREFERENCE}”`);
    expect(evidence).toContain('proposed by the rules in Weft');
    expect(await lines().count()).toBe(0);

    // One click to the turn it rests on.
    await proposals().first().getByTestId('memory-proposal-open').click();
    await page().getByTestId('memory-page').waitFor({ state: 'detached' });
    await canvas.card(first).waitFor();
    expect(await selected()).toEqual([first]);

    // 2. Rejected: gone from the Inbox, shown refused.
    await showMemory();
    await proposals().first().getByTestId('memory-proposal-reject').click();
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="memory-proposal"]').length === 0);
    await page().locator('[data-testid="memory-refusal"]').first().waitFor();
    expect(await page().getByTestId('memory-refusal').first().textContent()).toContain('rejected');
    expect(await pendingOnDisk()).toEqual([]);

    // 3. The same exchange asked again: refused by the person's decision, nothing reappears.
    await showCanvas();
    await canvas.ask(first);
    await judgedExchanges(2);
    await showMemory();
    await page()
      .locator('[data-testid="memory-activity-entry"][data-kind="refused"][data-reason="refused-by-person"]')
      .first()
      .waitFor();
    expect(await proposals().count()).toBe(0);
    expect(await lines().count()).toBe(0);
    expect(await pendingOnDisk()).toEqual([]);

    // 4. Another fact, accepted in the Inbox: it is a line now.
    await showCanvas();
    const second = await canvas.addQuestion(SECOND);
    await canvas.ask(second);
    await page().locator('[data-testid="toast"][data-code="memory-proposed"]').last().waitFor();
    await showMemory();
    await proposals().first().waitFor();
    expect(await proposals().first().getByTestId('memory-proposal-text').textContent()).toBe(SECOND);
    await proposals().first().getByTestId('memory-proposal-accept').click();
    await lines().first().waitFor();
    expect(await lines().first().getAttribute('data-evidence')).toBe('stated');
    await page().waitForFunction(() => document.querySelectorAll('[data-testid="memory-proposal"]').length === 0);
    await page().getByTestId('memory-inbox-count').filter({ hasText: '0 waiting' }).waitFor();

    // 5. The next request's preview carries it as the [Memory] part; the dispatch commits the preview's hash.
    await showCanvas();
    const third = await canvas.addQuestion('Which editor should I configure first?');
    await canvas.open(third);
    await canvas.panel.locator('[data-testid="preview-message"][data-layer="profile"]').waitFor();
    expect(await canvas.panel.locator('[data-layer="profile"] .preview-text').textContent()).toBe(
      `[Memory]\nPreferences:\n- ${SECOND}`,
    );
    const previewHash = await canvas.previewHash();
    await canvas.ask(third);
    expect((await canvas.panel.getByTestId('version-hash').first().textContent())!.trim()).toBe(previewHash);
    expect(app.pageErrors).toEqual([]);
  });
});
