// Page measurements for `bench:ui`. Page code is passed as functions with no named inner functions (see ui.bench.ts).
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

type Store = {
  getState(): {
    flush(): Promise<void>;
    openCanvas(id: string): Promise<void>;
    focusNode(id: string | null): void;
    apply(change: unknown): boolean;
    graph: { nodes: Map<string, { question?: string }> } | null;
  };
};
export type BenchWindow = Window & {
  weft: { store: Store; commands: { run(id: string): Promise<boolean> } };
  frames_: number[];
  key_: Promise<number>;
};

export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN;
}

/** Opens `canvasId` (not in IndexedDB: read from the server); ms from the call to its first card painted. */
export function openFromServer(page: Page, canvasId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const state = (window as unknown as BenchWindow).weft.store.getState();
    await state.flush();
    const started = performance.now();
    await state.openCanvas(id);
    while (!document.querySelector(`[data-testid="node-card"][data-node-id^="${id}-"]`))
      await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return performance.now() - started;
  }, canvasId);
}

/**
 * Waits until the page has cached `canvasId` in IndexedDB (its canvas row is written last, after every slice): a
 * reload before then reads it from the server again, which is not the cached first paint. Polled from here with
 * `evaluate`, which awaits the page's promise (`waitForFunction` took the returned promise itself as truthy and
 * returned at once, so "cached" reloads were reads from the server), then until the page's own fill has ended.
 */
export async function waitUntilCached(page: Page, canvasId: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const cached = await page.evaluate(
      (id) =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open('weft');
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const request = open.result.transaction('canvases').objectStore('canvases').get(id);
            request.onsuccess = () => {
              open.result.close();
              resolve(request.result !== undefined);
            };
            request.onerror = () => resolve(false);
          };
        }),
      canvasId,
    );
    // The open canvas's own fill may still be rewriting the rows another fill (the arrival cache) has just written:
    // its flush waits for it, so the reload reads the rows, not the server.
    if (cached) return page.evaluate(() => (window as unknown as BenchWindow).weft.store.getState().flush());
    if (Date.now() > deadline) throw new Error(`${canvasId} was not cached in IndexedDB within ${timeoutMs} ms`);
    await page.waitForTimeout(250);
  }
}

/** Reloads with the canvas active and cached; ms from navigation start to the frame after its first card. */
export async function reloadCached(page: Page, canvasId: string): Promise<number> {
  await page.reload();
  await page.waitForSelector(`[data-testid="node-card"][data-node-id^="${canvasId}-"]`, { timeout: 180_000 });
  return page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
}

/** Drags the pane `steps` times while recording rAF intervals; returns the intervals. */
export async function pan(page: Page, steps: number): Promise<number[]> {
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  await page.evaluate(() => {
    const frames: number[] = [];
    (window as unknown as BenchWindow).frames_ = frames;
    void (async () => {
      let last = performance.now();
      while (frames.length < 2000) {
        const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        frames.push(now - last);
        last = now;
      }
    })();
  });
  const startX = pane.x + pane.width * 0.3;
  const startY = pane.y + pane.height * 0.3;
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  for (let step = 1; step <= steps; step += 1) {
    await page.mouse.move(startX + step * 6, startY + step * 3);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  await page.mouse.up();
  return page.evaluate(() => {
    const frames = (window as unknown as BenchWindow).frames_;
    const taken = frames.slice(2);
    frames.length = 2000;
    return taken;
  });
}

/**
 * Runs Fit View and records frames until ten in a row take under 34 ms (after the 200 ms animation): the time from
 * the command to the start of that calm run, and the worst frame before it.
 */
export function fitView(page: Page): Promise<{ settleMs: number; worstFrameMs: number }> {
  return page.evaluate(async () => {
    const started = performance.now();
    void (window as unknown as BenchWindow).weft.commands.run('fit-view');
    let last = started;
    let calm = 0;
    let calmSince = started;
    let worst = 0;
    while (performance.now() - started < 60_000) {
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      const frame = now - last;
      last = now;
      if (frame < 34 && now - started > 200) {
        if (calm === 0) calmSince = now - frame;
        calm += 1;
        if (calm >= 10) break;
      } else {
        calm = 0;
        worst = Math.max(worst, frame);
      }
    }
    // Never calm within the window: it settled no sooner than now.
    return { settleMs: (calm >= 10 ? calmSince : performance.now()) - started, worstFrameMs: worst };
  });
}

/** The JS heap in use after a full garbage collection, in MB. */
export async function heapAfterGc(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await session.send('Runtime.getHeapUsage')) as { usedSize: number };
  await session.detach();
  return usedSize / 1e6;
}

/** Writes the page's heap snapshot to `file` (open it in Chrome DevTools' Memory tab: retained sizes by constructor). */
export async function writeHeapSnapshot(page: Page, file: string): Promise<void> {
  const session = await page.context().newCDPSession(page);
  const chunks: string[] = [];
  session.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
  await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await session.detach();
  await writeFile(file, chunks.join(''));
}

/** Appends one character to a question and flushes the save; bytes of the canvas bodies the page sent. */
export async function saveOneCharacterEdit(page: Page, nodeId: string): Promise<number> {
  let bytes = 0;
  const onRequest = (request: { url(): string; method(): string; postDataBuffer(): Buffer | null }) => {
    if (request.url().includes('/api/canvases/') && ['PUT', 'PATCH'].includes(request.method()))
      bytes += request.postDataBuffer()?.length ?? 0;
  };
  page.on('request', onRequest);
  await page.evaluate(async (id) => {
    const state = (window as unknown as BenchWindow).weft.store.getState();
    const question = state.graph!.nodes.get(id)!.question ?? '';
    state.apply({ type: 'edit-node', nodeId: id, patch: { question: question + '?' } });
    await state.flush();
  }, nodeId);
  await page.waitForTimeout(100);
  page.off('request', onRequest);
  return bytes;
}

/**
 * Opens the node panel of `nodeId` (its will-send preview shown); ms until the frame after the preview shows its
 * request hash (hashed in a worker while the panel renders: `data-ready` once the hash of this request is in).
 */
export function openPanel(page: Page, nodeId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const state = (window as unknown as BenchWindow).weft.store.getState();
    state.focusNode(null);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const started = performance.now();
    state.focusNode(id);
    const hashed = `[data-testid="node-panel"][data-node-id="${id}"] [data-testid="preview-hash"][data-ready="true"]`;
    while (!document.querySelector(hashed)) await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return performance.now() - started;
  }, nodeId);
}

/**
 * Types `count` characters into the focused question; per key, ms from keydown to the next painted frame. The page's
 * listener is in place before each key is sent (a busy page runs queued input before a queued evaluate, so a listener
 * added in the same round trip can miss its key and wait forever).
 */
export async function keystrokes(page: Page, count: number): Promise<number[]> {
  await page.getByTestId('question-input').click();
  await page.keyboard.press('End');
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    await page.evaluate(() => {
      (window as unknown as BenchWindow).key_ = new Promise<number>((resolve) => {
        window.addEventListener(
          'keydown',
          (event) => {
            const started = event.timeStamp;
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
          },
          { once: true, capture: true },
        );
      });
    });
    await page.waitForTimeout(20);
    await page.keyboard.type('x');
    times.push(await page.evaluate(() => (window as unknown as BenchWindow).key_));
  }
  return times;
}
