// `npm run bench:ui`: opens generated canvases of 2,000 / 10,000 / 20,000 answered questions (chains of 50, ~1 KB
// answers) in headless Chromium against the real server and prints `name: value unit` lines for each size: document
// size, first paint (cached and from the server), pan frames, Fit View, heap, the cached first paint and the heap
// each beside a minimal @xyflow/react page with the same nodes, bytes sent per one-character edit; map-mode pan frames on 2,000 plaqued answers; and the node panel of a question
// with 1,000 upstream nodes.
// `WEFT_BENCH_QUICK=1`: canvases of 40 / 80 / 120 nodes and a 30-deep chain (same figure names), seconds.
// Page code is passed as functions (the app's Content-Security-Policy refuses evaluating strings) and holds
// no named inner functions (tsx would wrap them in a `__name` helper the page does not have).
import { cpus } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { storedCanvasDocument } from '../../protocol/index.ts';
import type { Browser } from 'playwright-core';
import { announceQuickMode, scale } from './quick-mode.ts';
import { measureAutoLayout } from './measure-auto-layout.ts';
import { measureDeepPanel } from './measure-deep-panel.ts';
import { measureMapModePan } from './measure-map-mode.ts';
import { serveMinimalFlowPage } from './minimal-flow-page.ts';
import { openApp, putCanvas } from './ui-app.ts';
import { chainCanvas } from './ui-canvas.ts';
import {
  fitView,
  heapAfterGc,
  openFromServer,
  pan,
  percentile,
  reloadCached,
  saveOneCharacterEdit,
  waitUntilCached,
  writeHeapSnapshot,
} from './ui-measure.ts';

/** Canvas sizes: full 2k / 10k / 20k in chains of 50; quick 40 / 80 / 120 in chains of 10 (named as in a full run). */
const SIZES = [
  { name: 2000, chains: scale(40, 4), depth: scale(50, 10) },
  { name: 10000, chains: scale(200, 8), depth: scale(50, 10) },
  { name: 20000, chains: scale(400, 12), depth: scale(50, 10) },
];

const median = (values: number[]) => percentile(values, 0.5);
const print = (name: string, value: number, unit: string, digits = 1) =>
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);

/**
 * The minimal page with the same nodes: its first paint (ms from navigation start to the frame after its first
 * node, as `reloadCached` measures the app's; median of `runs` loads) and its heap after a full collection.
 */
async function minimalPage(browser: Browser, url: string, chains: number, depth: number, runs: number) {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const paints: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    await page.goto(`${url}?chains=${chains}&depth=${depth}&run=${run}`);
    await page.waitForSelector('.react-flow__node', { timeout: 120_000 });
    paints.push(
      await page.evaluate(
        () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))),
      ),
    );
  }
  const heap = await heapAfterGc(page);
  await page.context().close();
  return { heap, firstPaint: median(paints) };
}

async function main(): Promise<void> {
  announceQuickMode();
  const app = await openApp();
  const minimal = await serveMinimalFlowPage();
  try {
    const page = app.page;
    // `WEFT_BENCH_ONLY=deep-panel` measures only the 1,000-upstream panel (its two figures, a partial run).
    const deepOnly = process.env.WEFT_BENCH_ONLY === 'deep-panel';
    // `WEFT_BENCH_SIZES=2000,10000` measures only those sizes (a partial run; the full set is the default).
    const only = deepOnly ? [] : process.env.WEFT_BENCH_SIZES?.split(',').map(Number);
    for (const size of SIZES.filter((entry) => !only || only.includes(entry.name))) {
      const id = `bench-${size.name}`;
      const document = chainCanvas(id, size.chains, size.depth);
      // As the server stores it (`.weft.json`, version 3).
      print(`document_MB_${size.name}`, JSON.stringify(storedCanvasDocument(document)).length / 1e6, 'MB', 2);
      await putCanvas(app, document);
      const fromServer = await openFromServer(page, id);
      await waitUntilCached(page, id);
      const cached: number[] = [];
      for (let run = 0; run < scale(2, 1); run += 1) cached.push(await reloadCached(page, id));
      const panFrames = await pan(page, scale(90, 10));
      const fit = await fitView(page);
      const fitFrames = await pan(page, scale(60, 10));
      const heap = await heapAfterGc(page);
      // `WEFT_BENCH_HEAP_SNAPSHOT=<folder>`: the heap just read, as `heap-<n>.heapsnapshot` there (where it goes).
      const snapshots = process.env.WEFT_BENCH_HEAP_SNAPSHOT;
      if (snapshots) await writeHeapSnapshot(page, path.join(snapshots, `heap-${size.name}.heapsnapshot`));
      const baseline = await minimalPage(app.browser, minimal.url, size.chains, size.depth, cached.length);
      // Between the open zoom's cards and the fit's dots: the summary level (title and status), after the heap is read.
      const summaryFrames = await measureMapModePan(page, scale(60, 10), { plaques: false });
      // The first save after a reload: a PATCH too when the cached rows are exactly the record they name (they are
      // here: filled from the server read), a whole PUT when they may be ahead of it.
      const middle = `${id}-${Math.floor(size.chains / 2)}-${Math.floor(size.depth / 2)}`;
      const firstSave = await saveOneCharacterEdit(page, middle);
      const nextSave = await saveOneCharacterEdit(page, middle);
      print(`first_paint_${size.name}_ms`, median(cached), 'ms', 0);
      print(`first_paint_server_${size.name}_ms`, fromServer, 'ms', 0);
      print(`first_paint_minimal_${size.name}_ms`, baseline.firstPaint, 'ms', 0);
      print(`first_paint_over_minimal_${size.name}_ratio`, median(cached) / baseline.firstPaint, 'x', 2);
      print(`pan_frame_median_${size.name}_ms`, median(panFrames), 'ms');
      print(`fit_settle_${size.name}_ms`, fit.settleMs, 'ms', 0);
      print(`fit_worst_frame_${size.name}_ms`, fit.worstFrameMs, 'ms', 0);
      // The "pan median ≤ 20 ms at any zoom": the fitted zoom too (dots at 10k), not only the open zoom.
      print(`pan_median_at_fit_${size.name}_ms`, median(fitFrames), 'ms');
      print(`pan_p95_at_fit_${size.name}_ms`, percentile(fitFrames, 0.95), 'ms');
      print(`pan_median_at_summary_${size.name}_ms`, median(summaryFrames), 'ms');
      print(`pan_p95_at_summary_${size.name}_ms`, percentile(summaryFrames, 0.95), 'ms');
      print(`heap_after_gc_${size.name}_MB`, heap, 'MB');
      print(`heap_after_gc_minimal_${size.name}_MB`, baseline.heap, 'MB');
      print(`heap_over_minimal_${size.name}_ratio`, heap / baseline.heap, 'x', 2);
      print(`save_bytes_first_edit_after_reload_${size.name}`, firstSave, 'bytes', 0);
      print(`save_bytes_per_edit_${size.name}`, nextSave, 'bytes', 0);
    }

    if (!deepOnly) {
      // C32 map mode at 2,000 nodes: every answer with a plaque, zoomed out until the plaques replace the cards.
      const map = chainCanvas('bench-map', SIZES[0]!.chains, SIZES[0]!.depth, { plaques: true });
      await putCanvas(app, map);
      await openFromServer(page, 'bench-map');
      const mapFrames = await measureMapModePan(page, scale(90, 10));
      print('map_mode_pan_frame_median_2000_ms', median(mapFrames), 'ms');
      print('map_mode_pan_p95_2000_ms', percentile(mapFrames, 0.95), 'ms');
    }

    const deep = await measureDeepPanel(app);
    print('panel_open_1000_upstream_ms', deep.panelOpenMs, 'ms', 0);
    print('keystroke_p95_1000_upstream_ms', deep.keystrokeP95Ms, 'ms');
    print('keystroke_p95_bare_textarea_ms', deep.bareKeystrokeP95Ms, 'ms');
    print('keystroke_to_frame_p95_1000_upstream_ms', deep.keystrokeToFrameP95Ms, 'ms');
    print('keystroke_to_frame_p95_bare_textarea_ms', deep.bareKeystrokeToFrameP95Ms, 'ms');
    // Issue 17: the Auto-layout command on a 500-node canvas (its own page state; prints auto_layout_500_ms).
    if (!deepOnly) console.log(await measureAutoLayout(page));
    console.log(`nproc: ${cpus().length} cores`);
  } finally {
    await minimal.close();
    await app.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
