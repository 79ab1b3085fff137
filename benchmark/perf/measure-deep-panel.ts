// The node panel of a question with 1,000 upstream nodes, for bench:ui (issue 16): a 1,001-deep chain opened from the
// server, the panel of its last question opened (its will-send preview painted), then keys typed into its question.
import type { Page } from 'playwright-core';
import { scale } from './quick-mode.ts';
import { putCanvas, type BenchApp } from './ui-app.ts';
import { chainCanvas } from './ui-canvas.ts';
import { keystrokeWork } from './keystroke-work.ts';
import { keystrokes, openFromServer, openPanel, percentile, type BenchWindow } from './ui-measure.ts';

/** Chain length: 1,001 (1,000 upstream of the last) in a full run, 31 in quick mode. */
export const DEEP = scale(1001, 31);

/**
 * Puts and opens the deep chain, and waits until it is cached in IndexedDB (a canvas read from the server is cached
 * in slices after its first paint; those slices belong to the first-paint figures, not to typing).
 */
export async function openDeepChain(app: BenchApp): Promise<{ page: Page; last: string }> {
  await putCanvas(app, chainCanvas('bench-deep', 1, DEEP));
  await openFromServer(app.page, 'bench-deep');
  await app.page.evaluate(() => (window as unknown as BenchWindow).weft.store.getState().flush());
  return { page: app.page, last: `bench-deep-0-${DEEP - 1}` };
}

const KEYS = scale(30, 5);

/** Both keystroke figures' samples: the main thread's work per key (`keystroke-work.ts`) and key → next frame. */
type Keys = { work: number[]; toFrame: number[] };

async function typedKeys(app: BenchApp, page: Page): Promise<Keys> {
  const toFrame = await keystrokes(page, KEYS);
  const work = await keystrokeWork(app.browser, page, KEYS);
  return { work, toFrame };
}

/**
 * The same keys typed into a bare textarea on an empty page of the same browser: what a keystroke costs with no app
 * at all (input dispatch, one frame), the floor of the panel's figures (of key → next frame, mostly the vsync wait).
 */
async function bareTextareaKeys(app: BenchApp): Promise<Keys> {
  const page = await (await app.browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.setContent('<textarea data-testid="question-input" rows="4" cols="50">Question</textarea>');
  const keys = await typedKeys(app, page);
  await page.context().close();
  return keys;
}

export type DeepPanelFigures = {
  panelOpenMs: number;
  keystrokeP95Ms: number;
  bareKeystrokeP95Ms: number;
  keystrokeToFrameP95Ms: number;
  bareKeystrokeToFrameP95Ms: number;
};

/**
 * `panel_open_1000_upstream_ms` (median of 3 opens); of 30 keys in its question, `keystroke_p95_1000_upstream_ms`
 * (the main thread's work per key, p95) and `keystroke_to_frame_p95_1000_upstream_ms` (key → next frame, p95); the
 * same two for a bare textarea (`keystroke_p95_bare_textarea_ms`, `keystroke_to_frame_p95_bare_textarea_ms`).
 */
export async function measureDeepPanel(app: BenchApp): Promise<DeepPanelFigures> {
  const { page, last } = await openDeepChain(app);
  const opens: number[] = [];
  for (let run = 0; run < scale(3, 1); run += 1) opens.push(await openPanel(page, last));
  const keys = await typedKeys(app, page);
  const bare = await bareTextareaKeys(app);
  return {
    panelOpenMs: percentile(opens, 0.5),
    keystrokeP95Ms: percentile(keys.work, 0.95),
    bareKeystrokeP95Ms: percentile(bare.work, 0.95),
    keystrokeToFrameP95Ms: percentile(keys.toFrame, 0.95),
    bareKeystrokeToFrameP95Ms: percentile(bare.toFrame, 0.95),
  };
}
