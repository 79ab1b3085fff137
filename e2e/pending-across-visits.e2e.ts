import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { CanvasDriver } from './support/canvas-driver.ts';
import { launchApp, type LaunchedApp } from './support/launch-app.ts';

// Issue 27, part 1: an edit typed in a tab whose save never reached the server is kept in that browser's IndexedDB
// and replayed at its next visit onto what another browser saved in between; a change that no longer applies is
// listed. Tab A is the app's own browser context (its IndexedDB); tab B a second context (another browser).
let app: LaunchedApp;
let contextB: BrowserContext;
let tabB: Page;

/**
 * While true, the server's canvas store refuses every save (the PUT and PATCH routes answer with an error), as a
 * server that cannot be reached would leave them: tab B saves only while it is false.
 */
let refuseSaves = false;

function refuseSavesWhileFlagged(): void {
  const store = app.server.context.canvases;
  const write = store.write.bind(store);
  const patch = store.patch.bind(store);
  const refused = () => Promise.reject(new Error('saves are blocked by the test'));
  store.write = (...args: Parameters<typeof write>) => (refuseSaves ? refused() : write(...args));
  store.patch = (...args: Parameters<typeof patch>) => (refuseSaves ? refused() : patch(...args));
}

/** The steps this browser keeps for the server (IndexedDB's `pending` table), read as the page sees them, as JSON. */
function pendingSteps(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const opened = indexedDB.open('weft');
        opened.onerror = () => reject(new Error(String(opened.error)));
        opened.onsuccess = () => {
          const database = opened.result;
          const rows = database.transaction('pending').objectStore('pending').getAll();
          rows.onsuccess = () => {
            resolve((rows.result as unknown[]).map((row) => JSON.stringify(row)));
            database.close();
          };
        };
      }),
  );
}

/** True once the queue holds a step carrying `text` (its rows are written ~300 ms after the typing). */
const queued = async (page: Page, text: string) => (await pendingSteps(page)).some((row) => row.includes(text));

async function openCanvasId(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const list = (await (await fetch('/api/canvases')).json()) as { canvases: { id: string }[] };
    return list.canvases[0]!.id;
  });
}

async function storedQuestions(page: Page, id: string): Promise<string[]> {
  return page.evaluate(async (canvasId) => {
    const document = (await (await fetch(`/api/canvases/${canvasId}`)).json()) as {
      nodes: { kind: string; question?: string }[];
    };
    return document.nodes.filter((node) => node.kind === 'question').map((node) => node.question ?? '');
  }, id);
}

async function verifyStatus(page: Page, id: string): Promise<string> {
  return page.evaluate(async (canvasId) => {
    const body = (await (await fetch(`/api/canvases/${canvasId}/verify`)).json()) as { verdict: { status: string } };
    return body.verdict.status;
  }, id);
}

const shows = (page: Page, text: string) =>
  page.locator('[data-testid="node-question"]', { hasText: text }).first().waitFor({ timeout: 30_000 });

async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('[data-testid="node-card"]').first().waitFor({ timeout: 30_000 });
  return page;
}

beforeAll(async () => {
  app = await launchApp();
  refuseSavesWhileFlagged();
  await app.page.locator('[data-testid="node-card"]').first().waitFor();
  contextB = await app.browser.newContext({ viewport: { width: 1440, height: 900 } });
  tabB = await openTab(contextB, app.server.url);
});
afterAll(async () => {
  await contextB?.close().catch(() => {});
  await app?.close();
});

describe('pending changes across visits', () => {
  it('an edit in a tab closed before its save landed is replayed at the next visit beside the other tab’s save', async () => {
    const id = await openCanvasId(app.page);
    refuseSaves = true;
    await new CanvasDriver(app.page).addQuestion('Typed in tab A, never saved?');
    await expect.poll(() => queued(app.page, 'Typed in tab A, never saved?'), { timeout: 10_000 }).toBe(true);
    await app.page.close();
    refuseSaves = false;

    await new CanvasDriver(tabB).addQuestion('Typed in tab B and saved?');
    await expect.poll(() => storedQuestions(tabB, id), { timeout: 30_000 }).toContain('Typed in tab B and saved?');
    expect(await storedQuestions(tabB, id)).not.toContain('Typed in tab A, never saved?');

    const reopened = await openTab(app.context, app.server.url);
    await expect
      .poll(() => storedQuestions(reopened, id), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['Typed in tab A, never saved?', 'Typed in tab B and saved?']));
    await shows(reopened, 'Typed in tab A, never saved?');
    await shows(reopened, 'Typed in tab B and saved?');
    expect(await verifyStatus(reopened, id)).toBe('intact');
    await expect.poll(async () => (await pendingSteps(reopened)).length, { timeout: 10_000 }).toBe(0);
    await reopened.getByTestId('tab-events').click();
    await reopened.getByTestId('verify').click();
    await reopened.getByTestId('verify-result').waitFor();
    expect(await reopened.getByTestId('verify-result').getAttribute('data-status')).toBe('intact');
    await reopened.getByTestId('tab-canvas').click();
    app.page = reopened;
  });

  it('the same with a reload: the edit typed before it is kept, and the other tab’s save with it', async () => {
    const id = await openCanvasId(app.page);
    refuseSaves = true;
    await new CanvasDriver(app.page).addQuestion('Typed before the reload?');
    await expect.poll(() => queued(app.page, 'Typed before the reload?'), { timeout: 10_000 }).toBe(true);
    // A's save was tried and refused; it is not tried again until A changes something or goes.
    await app.page.locator('[data-testid="toast"]', { hasText: 'Could not save' }).first().waitFor({ timeout: 30_000 });
    refuseSaves = false;

    await tabB.reload();
    await tabB.locator('[data-testid="node-card"]').first().waitFor({ timeout: 30_000 });
    await new CanvasDriver(tabB).addQuestion('Saved by B before A reloads?');
    await expect.poll(() => storedQuestions(tabB, id), { timeout: 30_000 }).toContain('Saved by B before A reloads?');
    expect(await storedQuestions(tabB, id)).not.toContain('Typed before the reload?');

    await app.page.reload();
    await app.page.waitForSelector('[data-testid="canvas"]', { timeout: 30_000 });
    await expect
      .poll(() => storedQuestions(app.page, id), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['Typed before the reload?', 'Saved by B before A reloads?']));
    await shows(app.page, 'Typed before the reload?');
    await shows(app.page, 'Saved by B before A reloads?');
    expect(await verifyStatus(app.page, id)).toBe('intact');
  });

  it('an edit of a card deleted in the other tab is listed as not applied, and the list can be dismissed', async () => {
    const id = await openCanvasId(app.page);
    const driverA = new CanvasDriver(app.page);
    const cardId = await driverA.addQuestion('Doomed card?');
    await expect.poll(() => storedQuestions(app.page, id), { timeout: 30_000 }).toContain('Doomed card?');
    await expect.poll(async () => (await pendingSteps(app.page)).length, { timeout: 10_000 }).toBe(0);

    refuseSaves = true;
    await driverA.editQuestion(cardId, 'Doomed card, edited in A?');
    await driverA.addQuestion('Kept from A?');
    await expect.poll(() => queued(app.page, 'Kept from A?'), { timeout: 10_000 }).toBe(true);
    expect(await queued(app.page, 'Doomed card, edited in A?')).toBe(true);
    await app.page.close();
    refuseSaves = false;

    await tabB.reload();
    const driverB = new CanvasDriver(tabB);
    await shows(tabB, 'Doomed card?');
    await driverB.open(cardId);
    expect(await driverB.command('delete')).toBe(true);
    await expect.poll(() => storedQuestions(tabB, id), { timeout: 30_000 }).not.toContain('Doomed card?');

    const reopened = await openTab(app.context, app.server.url);
    const list = reopened.getByTestId('unapplied-changes');
    await list.waitFor({ timeout: 30_000 });
    const items = reopened.getByTestId('unapplied-change');
    expect(await items.count()).toBeGreaterThan(0);
    expect(await items.first().textContent()).toContain('Doomed card, edited in A?');
    expect(await list.textContent()).toMatch(/\d+ of your unsaved changes? (was|were) kept; \d+ could not be applied/);
    await expect
      .poll(() => storedQuestions(reopened, id), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['Kept from A?']));
    expect(await storedQuestions(reopened, id)).not.toContain('Doomed card, edited in A?');
    expect(await verifyStatus(reopened, id)).toBe('intact');
    await list.getByRole('button', { name: 'Dismiss' }).click();
    await list.waitFor({ state: 'detached' });
    app.page = reopened;
  });
});
