import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

let app: LaunchedApp;
let otherContext: BrowserContext;
let other: Page;

/** The questions the durable record holds, read the way a page reads it. */
async function storedQuestions(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const list = (await (await fetch('/api/canvases')).json()) as { canvases: { id: string }[] };
    const questions: string[] = [];
    for (const { id } of list.canvases) {
      const document = (await (await fetch(`/api/canvases/${id}`)).json()) as {
        nodes: { kind: string; question?: string }[];
      };
      for (const node of document.nodes) if (node.kind === 'question') questions.push(node.question ?? '');
    }
    return questions;
  });
}

const shows = (page: Page, text: string) =>
  page.locator('[data-testid="node-question"]', { hasText: text }).first().waitFor({ timeout: 20_000 });

beforeAll(async () => {
  app = await launchApp();
  await app.page.locator('[data-testid="node-card"]').first().waitFor();
  // A second browser context: its own cookies and IndexedDB, like a second browser on the same Weft.
  otherContext = await app.browser.newContext({ viewport: { width: 1440, height: 900 } });
  other = await otherContext.newPage();
  await other.goto(app.server.url);
  await other.locator('[data-testid="node-card"]').first().waitFor({ timeout: 30_000 });
});
afterAll(async () => {
  await otherContext?.close().catch(() => {});
  await app?.close();
});

describe('two browser tabs editing one canvas', () => {
  it('both edits survive, both tabs show both, and the event log verifies intact in each, also after a reload', async () => {
    const one = new CanvasDriver(app.page);
    const two = new CanvasDriver(other);
    // Each tab edits before the other's save has reached it.
    await Promise.all([one.addQuestion('Asked in tab one?'), two.addQuestion('Asked in tab two?')]);

    await expect
      .poll(() => storedQuestions(app.page), { timeout: 30_000, interval: 300 })
      .toEqual(expect.arrayContaining(['Asked in tab one?', 'Asked in tab two?']));
    for (const page of [app.page, other]) {
      await shows(page, 'Asked in tab one?');
      await shows(page, 'Asked in tab two?');
    }

    for (const page of [app.page, other]) {
      await page.getByTestId('tab-events').click();
      await page.getByTestId('verify').click();
      const result = page.getByTestId('verify-result');
      await result.waitFor();
      expect(await result.getAttribute('data-status')).toBe('intact');
      expect(await result.textContent()).toContain('matching the chain head on disk');
    }

    // A reload reads this tab's own IndexedDB copy: no rows of its pre-merge log are left behind.
    await other.reload();
    await other.waitForSelector('[data-testid="canvas"]', { timeout: 30_000 });
    await other.getByTestId('tab-events').click();
    await other.getByTestId('verify').click();
    await other.getByTestId('verify-result').waitFor();
    expect(await other.getByTestId('verify-result').getAttribute('data-status')).toBe('intact');
    await other.getByTestId('tab-canvas').click();
    await shows(other, 'Asked in tab one?');
    await shows(other, 'Asked in tab two?');
    expect(app.pageErrors.filter((message) => !message.includes('409'))).toEqual([]);
  });
});
