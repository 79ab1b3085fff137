import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { threadsCanvas } from '../benchmark/perf/core-canvas.ts';
import { startServer, type RunningServer } from '../server/start-server.ts';
import { canonicalJson } from '../src/core/index.ts';
import { CHROMIUM_ARGS, ensureBuilt, repoRoot } from './support/launch-app.ts';

// Issue 27: the browser killed (SIGKILL, its whole process group) while a 10,000-node canvas is being cached in
// slices (`fill-canvas-rows.ts`): the next open is complete and identical to the server's record. The canvas row and
// its revision are written last, so a half-written cache is never read as the canvas.
let server: RunningServer;
let home: string;
let profile: string;

interface Launched {
  child: ChildProcess;
  browser: Browser;
  page: Page;
}

/** Chromium as its own process group on a profile folder that outlives it, driven over CDP. */
async function launchChromium(): Promise<Launched> {
  const child = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [...CHROMIUM_ARGS, '--headless=new', `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found) resolve(found[1]!);
    });
    child.once('exit', () => reject(new Error(`chromium exited: ${text.slice(-500)}`)));
  });
  const browser = await chromium.connectOverCDP(endpoint);
  const context = browser.contexts()[0]!;
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  return { child, browser, page };
}

function kill({ child }: Launched): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGKILL');
  });
}

const recordHash = (document: unknown) => createHash('sha256').update(canonicalJson(document)).digest('hex');

/** The open canvas as the page holds it, and the server's record of it. */
async function hashes(page: Page, id: string): Promise<{ shown: string; stored: string; nodes: number }> {
  const [shown, stored] = await page.evaluate(async (canvasId) => {
    type Store = { getState(): { activeCanvasId: string | null; exportDocument(): unknown } };
    const state = (window as unknown as { weft: { store: Store } }).weft.store.getState();
    if (state.activeCanvasId !== canvasId) throw new Error(`open canvas is ${state.activeCanvasId}`);
    const record = (await (await fetch(`/api/canvases/${canvasId}`)).json()) as unknown;
    return [state.exportDocument(), record];
  }, id);
  return { shown: recordHash(shown), stored: recordHash(stored), nodes: (shown as { nodes: unknown[] }).nodes.length };
}

function openCanvas(page: Page, id: string): Promise<void> {
  return page.evaluate((canvasId) => {
    type Store = { getState(): { openCanvas(id: string): Promise<void> } };
    return (window as unknown as { weft: { store: Store } }).weft.store.getState().openCanvas(canvasId);
  }, id);
}

/** What the profile's IndexedDB holds of the canvas: its canvas row, and how many packs were written. */
function cached(page: Page, id: string): Promise<{ row: boolean; packs: number }> {
  return page.evaluate(
    (canvasId) =>
      new Promise<{ row: boolean; packs: number }>((resolve, reject) => {
        const opened = indexedDB.open('weft');
        opened.onerror = () => reject(new Error(String(opened.error)));
        opened.onsuccess = () => {
          const database = opened.result;
          const transaction = database.transaction(['canvases', 'packs']);
          const row = transaction.objectStore('canvases').getKey(canvasId);
          const packs = transaction.objectStore('packs').index('canvasId').count(canvasId);
          transaction.oncomplete = () => {
            resolve({ row: row.result !== undefined, packs: packs.result });
            database.close();
          };
        };
      }),
    id,
  );
}

beforeAll(async () => {
  ensureBuilt();
  home = mkdtempSync(path.join(tmpdir(), 'weft-e2e-kill-'));
  profile = mkdtempSync(path.join(tmpdir(), 'weft-e2e-profile-'));
  server = await startServer({
    port: 0,
    home,
    staticDir: path.join(repoRoot, 'dist/ui'),
    env: {},
    dotenvPath: null,
    ollamaUrl: null,
    allowLoopbackTargets: true,
  });
}, 60_000);
afterAll(async () => {
  await server?.close().catch(() => {});
  rmSync(home, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

describe('a browser killed while a 10,000-node canvas is cached', () => {
  it('opens it next time complete and identical to the server’s record', async () => {
    const first = await launchChromium();
    await first.page.goto(server.url);
    await first.page.locator('[data-testid="node-card"]').first().waitFor({ timeout: 60_000 });
    // Made on the server after this browser cached what it had: `canvas-changed` announces it and the page caches it
    // in slices (`cacheArrivedCanvas` → `fillCanvasRows`), watched from before the save.
    const { document } = threadsCanvas(10_000);
    const id = document.canvas.id;
    // The page's work slowed (CDP CPU throttling), so the fill's slices last long enough to be seen and cut.
    const session = await first.page.context().newCDPSession(first.page);
    await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const saved = first.page
      .evaluate(
        async ([canvasId, body]) =>
          (
            await fetch(`/api/canvases/${canvasId}`, {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body,
            })
          ).status,
        [id, JSON.stringify(document)] as const,
      )
      .catch(() => 0);
    // Killed once some packs are written and before the canvas row is: in the middle of the fill.
    let state = { row: false, packs: 0 };
    await expect
      .poll(async () => ((state = await cached(first.page, id)), state.packs > 0 || state.row), {
        timeout: 120_000,
        interval: 10,
      })
      .toBe(true);
    expect(await saved).toBe(200);
    await kill(first);
    expect(state).toMatchObject({ row: false });
    expect(state.packs).toBeGreaterThan(0);

    const second = await launchChromium();
    try {
      await second.page.goto(server.url);
      await second.page.locator('[data-testid="node-card"]').first().waitFor({ timeout: 120_000 });
      await openCanvas(second.page, id);
      const reopened = await hashes(second.page, id);
      expect(reopened.nodes).toBe(10_000);
      expect(reopened.shown).toBe(reopened.stored);
      // Once this visit's fill has ended, a reload reads the rows: the same record again.
      await expect.poll(async () => (await cached(second.page, id)).row, { timeout: 120_000 }).toBe(true);
      await second.page.reload();
      await second.page.locator('[data-testid="node-card"]').first().waitFor({ timeout: 120_000 });
      const fromRows = await hashes(second.page, id);
      expect(fromRows.nodes).toBe(10_000);
      expect(fromRows.shown).toBe(fromRows.stored);
    } finally {
      await second.browser.close().catch(() => {});
      await kill(second).catch(() => {});
    }
  }, 600_000);
});
