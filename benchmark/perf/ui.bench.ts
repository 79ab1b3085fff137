// `npm run bench:ui`: opens a generated 2,000-node canvas in headless Chromium against the real
// server and prints `name: value unit` lines (first paint, pan frame time, IndexedDB rows per edit).
// `WEFT_BENCH_QUICK=1`: a 40-node canvas, one reload, a short pan (same figure names), seconds.
// Page code is passed as functions (the app's Content-Security-Policy refuses evaluating strings) and holds
// no named inner functions (tsx would wrap them in a `__name` helper the page does not have).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  applyChange,
  documentFromGraph,
  emptyGraph,
  upstreamSnapshot,
  type Graph,
  type GraphChange,
} from '../../src/core/index.ts';
import type { CanvasDocument } from '../../protocol/index.ts';
import type { Browser, Page } from 'playwright-core';
import { ensureBuilt, launchChromium, repoRoot } from '../../tests/support/index.ts';
import { announceQuickMode, scale } from './quick-mode.ts';

type BenchWindow = Window & { longTasks_: string[]; frames_: number[] };

/** Starts the app as `npm start` does (the build is refreshed first only if a source is newer) and reads its URL. */
function startApp(home: string): Promise<{ child: ChildProcess; url: URL }> {
  ensureBuilt();
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env: { ...process.env, WEFT_PORT: '0', WEFT_HOME: home, WEFT_SKIP_BUILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s]+)/.exec(output);
      if (match) resolve({ child, url: new URL(match[1]!) });
    });
    child.once('exit', (code) => reject(new Error(`the app exited (${code}) before printing its URL`)));
  });
}

async function openApp(): Promise<{
  page: Page;
  browser: Browser;
  origin: string;
  token: string;
  close(): Promise<void>;
}> {
  const home = mkdtempSync(path.join(tmpdir(), 'weft-bench-ui-'));
  const { child, url } = await startApp(home);
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(url.href);
  await page.waitForSelector('[data-testid="canvas"]', { timeout: 60_000 });
  return {
    page,
    browser,
    origin: url.origin,
    token: url.searchParams.get('token')!,
    async close() {
      await browser.close().catch(() => {});
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(home, { recursive: true, force: true });
    },
  };
}

const COLUMNS = scale(40, 4);
const ROWS = scale(50, 10);

/** 40 chains of 50 answered questions (2,000 nodes, 1,960 solid wires), every answer fresh (4 × 10 quick). */
export function generateCanvas(): CanvasDocument {
  let clock = 1_760_000_000_000;
  let counter = 0;
  const context = () => ({ now: (clock += 1000), newId: () => `n${(counter += 1).toString(36)}` });
  let graph: Graph = emptyGraph({
    id: 'bench-2000',
    name: 'Benchmark: 2,000 nodes',
    workingDirectory: null,
    createdAt: clock,
  });
  const apply = (change: GraphChange) => {
    const result = applyChange(graph, change, context());
    if (!result.ok) throw new Error(result.error.message);
    graph = result.value.graph;
    return result.value;
  };
  const ids: string[][] = [];
  for (let column = 0; column < COLUMNS; column += 1) {
    ids.push([]);
    for (let row = 0; row < ROWS; row += 1) {
      const { created } = apply({
        type: 'add-node',
        node: {
          kind: 'question',
          question: `Question ${column}.${row}: what follows from the step above?`,
          position: { x: column * 340, y: row * 210 },
        },
      });
      ids[column]!.push(created[0]!);
      if (row > 0) apply({ type: 'wire', from: ids[column]![row - 1]!, to: created[0]!, kind: 'solid' });
    }
  }
  for (let row = 0; row < ROWS; row += 1) {
    for (let column = 0; column < COLUMNS; column += 1) {
      const nodeId = ids[column]![row]!;
      const snapshot = upstreamSnapshot(graph, nodeId);
      apply({
        type: 'add-version',
        nodeId,
        select: true,
        version: {
          text: `An answer for ${column}.${row}, long enough to wrap over a few lines on the card so that rendering does real layout work.`,
          question: `Question ${column}.${row}: what follows from the step above?`,
          model: 'offline/receipt',
          requestHash: null,
          upstreamFingerprint: snapshot.upstreamFingerprint,
          upstream: snapshot.upstream,
          origin: 'demo',
          status: 'complete',
          branchOf: null,
        },
      });
    }
  }
  return documentFromGraph(graph);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  announceQuickMode();
  const document = generateCanvas();
  const app = await openApp();
  try {
    const page = app.page;
    const put = await fetch(`${app.origin}/api/canvases/${document.canvas.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(document),
    });
    if (!put.ok) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);

    // Cold: IndexedDB does not hold the canvas; the app restores it from the durable record.
    await page.evaluate(async (id) => {
      const weft = (
        window as unknown as {
          weft: { store: { getState(): { flush(): Promise<void>; openCanvas(id: string): Promise<void> } } };
        }
      ).weft;
      await weft.store.getState().flush();
      await weft.store.getState().openCanvas(id);
    }, document.canvas.id);
    await page.waitForSelector('[data-testid="node-card"]');

    if (process.env.WEFT_BENCH_VERBOSE) {
      await page.addInitScript(() => {
        const tasks: string[] = [];
        (window as unknown as BenchWindow).longTasks_ = tasks;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            tasks.push(`${Math.round(entry.startTime)}+${Math.round(entry.duration)}`);
        }).observe({ type: 'longtask', buffered: true });
      });
    }
    // Warm: reload with the canvas active and in IndexedDB; time from navigation start to first painted card.
    const samples: number[] = [];
    for (let run = 0; run < scale(3, 1); run += 1) {
      const profiler = process.env.WEFT_BENCH_PROFILE && run === 0 ? await page.context().newCDPSession(page) : null;
      if (profiler) {
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.start');
      }
      await page.reload();
      await page.waitForSelector('[data-testid="node-card"]', { timeout: 60_000 });
      if (profiler) {
        const { profile } = (await profiler.send('Profiler.stop')) as {
          profile: {
            nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
            samples: number[];
            timeDeltas: number[];
          };
        };
        const byNode = new Map(profile.nodes.map((node) => [node.id, node] as const));
        const self = new Map<string, number>();
        profile.samples.forEach((id, index) => {
          const frame = byNode.get(id)!.callFrame;
          const key = `${frame.functionName || '(anon)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
          self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
        });
        console.log(
          [...self.entries()]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 25)
            .map(([key, ms]) => `${ms.toFixed(0)}ms ${key}`)
            .join('\n'),
        );
      }
      samples.push(
        await page.evaluate(
          () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))),
        ),
      );
    }
    const cards = await page.locator('[data-testid="node-card"]').count();
    const marks = await page.evaluate(() =>
      performance
        .getEntriesByType('mark')
        .map((entry) => `${entry.name}=${Math.round(entry.startTime)}`)
        .join(' '),
    );
    if (process.env.WEFT_BENCH_VERBOSE) {
      console.log(`marks: ${marks}`);
      console.log(`long tasks: ${await page.evaluate(() => (window as unknown as BenchWindow).longTasks_.join(' '))}`);
      console.log(
        await page.evaluate(
          () =>
            `dom=${window.document.querySelectorAll('*').length} flowNodes=${window.document.querySelectorAll('.react-flow__node').length} edges=${window.document.querySelectorAll('.react-flow__edge').length} minimap=${window.document.querySelectorAll('.react-flow__minimap-node').length}`,
        ),
      );
    }

    // Scripted pan: drag the pane for ~90 frames and record rAF intervals.
    const pane = (await page.locator('.react-flow__pane').boundingBox())!;
    // Records rAF intervals in the background (not awaited) while the mouse pans below.
    await page.evaluate(() => {
      const frames: number[] = [];
      (window as unknown as BenchWindow).frames_ = frames;
      void (async () => {
        let last = performance.now();
        while (frames.length < 400) {
          const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
          frames.push(now - last);
          last = now;
        }
      })();
    });
    const startX = pane.x + pane.width * 0.2;
    const startY = pane.y + pane.height * 0.2;
    await page.mouse.move(startX, startY);
    await page.mouse.down();
    for (let step = 1; step <= scale(90, 10); step += 1) {
      await page.mouse.move(startX + step * 8, startY + step * 4);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    await page.mouse.up();
    const frames = await page.evaluate(() => (window as unknown as BenchWindow).frames_.slice(2));

    // One question edit through the panel; count rows the persistence layer writes.
    if (process.env.WEFT_BENCH_SHOT) await page.screenshot({ path: process.env.WEFT_BENCH_SHOT });
    const cardIds = await page.locator('[data-testid="node-card"]').evaluateAll((elements) =>
      elements
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return (
            box.top > 120 &&
            box.bottom < window.innerHeight - 40 &&
            box.left > 20 &&
            box.right < window.innerWidth - 500
          );
        })
        .map((element) => element.getAttribute('data-node-id')),
    );
    const nodeId = cardIds[0];
    await page.locator(`[data-testid="node-card"][data-node-id="${nodeId}"] .card-header`).click();
    const flushAndCount = () =>
      page.evaluate(async () => {
        const weft = (
          window as unknown as {
            weft: { store: { getState(): { flush(): Promise<void> } }; persistence: { rowsWritten: number } };
          }
        ).weft;
        await weft.store.getState().flush();
        return weft.persistence.rowsWritten;
      });
    const before = await flushAndCount();
    const input = page.getByTestId('question-input');
    await input.fill('An edited question: does the chain still hold?');
    await input.blur();
    const after = await flushAndCount();

    // Every save echoes back as canvas-changed; the page re-reads the record and finds it identical.
    const echoChecks = await page.evaluate(
      async ({ id, rounds }) => {
        const state = (
          window as unknown as {
            weft: { store: { getState(): { canvasChangedElsewhere(id: string): Promise<boolean> } } };
          }
        ).weft.store.getState();
        const times: number[] = [];
        for (let round = 0; round < rounds; round += 1) {
          const started = performance.now();
          if (await state.canvasChangedElsewhere(id))
            throw new Error("an echo of this page's own save changed the canvas");
          times.push(performance.now() - started);
        }
        return times;
      },
      { id: document.canvas.id, rounds: scale(3, 1) },
    );

    console.log(`nodes: ${document.nodes.length} count`);
    console.log(`cards_rendered_after_open: ${cards} count`);
    console.log(`first_paint_2000_ms: ${Math.round(median(samples))} ms`);
    console.log(`pan_frame_median_ms: ${median(frames).toFixed(1)} ms`);
    console.log(
      `pan_frame_p95_ms: ${[...frames].sort((a, b) => a - b)[Math.floor(frames.length * 0.95)]!.toFixed(1)} ms`,
    );
    console.log(`idb_rows_written_per_edit: ${after - before} rows`);
    console.log(`echo_check_2000_ms: ${Math.round(median(echoChecks))} ms`);
    console.log(`nproc: ${cpus().length} cores`);
  } finally {
    await app.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
