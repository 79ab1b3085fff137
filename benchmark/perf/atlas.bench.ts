/**
 * `npm run bench:atlas`: the Session Atlas in the real app (server in this process, UI in headless Chromium).
 * - list_10000_sessions_ms: `GET /api/atlas/sessions` over 10,000 generated pi sessions, index already built
 *   (each call still runs the incremental stat pass, then lists from the index; median of 7).
 * - mirror_5000_turns_ms: click "Mirror to a new canvas" on a generated 5,000-turn session → 5,000 mirror nodes
 *   in the store and the canvas drawn (median of 3).
 * - live_append_latency_ms: a followed session's file gets a new turn appended → the node is on the canvas
 *   (median of 5).
 * `WEFT_BENCH_QUICK=1`: 100 sessions, a 100-turn mirror, one round each (same figure names), seconds.
 * Page code is passed as functions (the app's Content-Security-Policy refuses evaluating strings) and holds no
 * named inner functions (tsx would wrap them in a `__name` helper the page does not have).
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeAtlasService } from '../../server/atlas/index.ts';
import { startServer } from '../../server/index.ts';
import { ensureBuilt, launchChromium, repoRoot } from '../../tests/support/index.ts';
import { announceQuickMode, scale } from './quick-mode.ts';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? scale(10_000, 100));
const TURNS = Number(process.env.BENCH_TURNS ?? scale(5_000, 100));

/** What the page code reads: the app's store, exposed on `window.weft` for tests and benchmarks. */
interface StoreState {
  activeCanvasId: string | null;
  graph: {
    nodes: Map<string, { kind: string; question: string }>;
    ledgers: { sessionId: string; following: boolean }[];
  } | null;
  toasts: unknown;
}
type WeftWindow = Window & { weft: { store: { getState(): StoreState } }; __phases?: Record<string, number> };

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** pi session lines: a header, then a user line and an assistant line (with one edit tool call) per turn. */
function piSession(id: string, cwd: string, turns: number, start: number, label = 'Turn'): string {
  const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: new Date(start).toISOString(), cwd })];
  let parent: string | null = null;
  for (let turn = 0; turn < turns; turn += 1) {
    lines.push(...piTurn(turn, parent, start + turn * 2000, label));
    parent = `a${turn}`;
  }
  return `${lines.join('\n')}\n`;
}

function piTurn(turn: number, parent: string | null, at: number, label = 'Turn'): string[] {
  const user = {
    type: 'message',
    id: `u${turn}`,
    parentId: parent,
    timestamp: new Date(at).toISOString(),
    message: {
      role: 'user',
      content: [{ type: 'text', text: `${label} ${turn}: tidy up src/module${turn % 40}.ts and explain the change.` }],
      timestamp: at,
    },
  };
  const assistant = {
    type: 'message',
    id: `a${turn}`,
    parentId: `u${turn}`,
    timestamp: new Date(at + 900).toISOString(),
    message: {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: `Done with turn ${turn}: renamed two helpers in src/module${turn % 40}.ts and removed a dead branch.`,
        },
      ],
      api: 'openai-completions',
      provider: 'scripted',
      model: 'scripted-coder',
      stopReason: 'stop',
      timestamp: at + 900,
    },
  };
  return [JSON.stringify(user), JSON.stringify(assistant)];
}

async function main(): Promise<void> {
  announceQuickMode();
  ensureBuilt();
  const directory = mkdtempSync(join(tmpdir(), 'weft-atlas-bench-'));
  const manyRoot = join(directory, 'many');
  const bigRoot = join(directory, 'big');
  const home = join(directory, 'weft-home');
  const start = Date.UTC(2026, 0, 1);
  for (let index = 0; index < SESSIONS; index += 1) {
    const folder = join(manyRoot, `--project-${index % 100}--`);
    if (index < 100) mkdirSync(folder, { recursive: true });
    const id = `0000${index.toString(16).padStart(8, '0')}-bench`;
    writeFileSync(
      join(folder, `${id}.jsonl`),
      piSession(id, `/work/project-${index % 100}`, 1 + (index % 3), start + index * 60_000),
    );
  }
  mkdirSync(bigRoot, { recursive: true });
  const bigId = 'big-session-5000';
  writeFileSync(join(bigRoot, `${bigId}.jsonl`), piSession(bigId, '/work/big', TURNS, start));
  const liveId = 'live-session';
  const liveFile = join(bigRoot, `${liveId}.jsonl`);
  writeFileSync(liveFile, piSession(liveId, '/work/live', 20, start + 5_000, 'Live turn'));

  process.env.WEFT_SESSION_ROOTS = [manyRoot, bigRoot].join(delimiter);
  const server = await startServer({
    port: 0,
    home,
    staticDir: process.env.BENCH_STATIC ?? join(repoRoot, 'dist/ui'),
    env: {},
    dotenvPath: null,
    ollamaUrl: null,
    logger: process.env.BENCH_PROFILE
      ? {
          info() {},
          warn: (message: string, fields?: unknown) => console.log('warn', message, JSON.stringify(fields)),
          error: (message: string, fields?: unknown) => console.log('error', message, JSON.stringify(fields)),
        }
      : { info() {}, warn() {}, error() {} },
  });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(server.origin + path, {
      ...init,
      headers: { authorization: `Bearer ${server.token}`, ...(init.headers as Record<string, string> | undefined) },
    });
  console.log(`cores: ${availableParallelism()} cores`);
  if (process.env.BENCH_PROFILE)
    server.context.hub.subscribe((event) => {
      if (event.type !== 'canvas-changed') console.log('hub', Math.round(performance.now()), JSON.stringify(event));
    });
  try {
    // Listing: the first call builds the index (all files read); later calls run the stat pass, then list from the index.
    let before = performance.now();
    const first = (await (await api('/api/atlas/sessions')).json()) as { total: number };
    console.log(`index_first_build_ms: ${(performance.now() - before).toFixed(0)} ms (${first.total} sessions)`);
    const listings: number[] = [];
    for (let round = 0; round < scale(7, 2); round += 1) {
      before = performance.now();
      const body = (await (await api('/api/atlas/sessions?sort=recent')).json()) as { total: number };
      listings.push(performance.now() - before);
      if (body.total !== SESSIONS + 2) throw new Error(`expected ${SESSIONS + 2} sessions, got ${body.total}`);
    }
    // Figure names keep the full run's scale; the scale of this run is printed beside them.
    console.log(`sessions_listed: ${SESSIONS + 2} sessions`);
    console.log(`list_10000_sessions_ms: ${median(listings).toFixed(0)} ms`);

    const browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    page.on('pageerror', (error) => console.log('pageerror', error.message.slice(0, 500)));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      console.log('console', message.text().slice(0, 300));
      void Promise.all(
        message
          .args()
          .map((argument) =>
            argument
              .evaluate((value: unknown) => String(value instanceof Error ? value.stack : value).slice(0, 1500))
              .catch(() => ''),
          ),
      ).then((texts) => console.log('console-args', texts.join('\n---\n')));
    });
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="canvas"]', { timeout: 60_000 });

    const profile = process.env.BENCH_CPU ? await page.context().newCDPSession(page) : null;
    if (profile) {
      await profile.send('Profiler.enable');
      await profile.send('Profiler.setSamplingInterval', { interval: 1000 });
      await profile.send('Profiler.start');
    }
    const mirrors: number[] = [];
    for (let round = 0; round < Number(process.env.BENCH_MIRROR_ROUNDS ?? scale(3, 1)); round += 1) {
      await page.getByTestId('tab-atlas').click();
      await page.getByTestId('atlas-search').fill('/work/big');
      await page.locator(`[data-testid="atlas-session"][data-session-id="${bigId}"]`).click({ timeout: 60_000 });
      await page
        .locator(`[data-testid="session-detail"][data-session-id="${bigId}"] [data-testid="session-turn"]`)
        .first()
        .waitFor({ timeout: 60_000 });
      const elapsed = await page.evaluate(async (turns) => {
        const store = (window as WeftWindow).weft.store;
        const before = store.getState().activeCanvasId;
        const started = performance.now();
        (document.querySelector('[data-testid="mirror-new"]') as HTMLElement).click();
        const phases: Record<string, number> = {};
        for (;;) {
          const state = store.getState();
          const nodes = state.graph ? state.graph.nodes.size : 0;
          if (state.activeCanvasId !== before && !phases.canvas) phases.canvas = performance.now() - started;
          if (nodes >= turns && !phases.nodes) phases.nodes = performance.now() - started;
          const drawn = document.querySelectorAll('.react-flow__node[data-id]').length > 0;
          if (state.activeCanvasId !== before && nodes >= turns && drawn) break;
          if (performance.now() - started > 120_000)
            throw new Error(
              `mirror did not finish: ${JSON.stringify({ canvas: state.activeCanvasId !== before, nodes, drawn, toasts: state.toasts })}`,
            );
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
        await new Promise((resolve) => requestAnimationFrame(resolve));
        (window as WeftWindow).__phases = phases;
        return performance.now() - started;
      }, TURNS);
      if (process.env.BENCH_PROFILE) {
        console.log('phases', JSON.stringify(await page.evaluate(() => (window as WeftWindow).__phases)));
        console.log(
          'marks',
          JSON.stringify(
            await page.evaluate(() => {
              const marks = performance
                .getEntriesByType('mark')
                .filter((entry) => entry.name.startsWith('weft-mirror:'));
              const first = marks.find((entry) => entry.name === 'weft-mirror:start');
              const out = marks.map((entry) => [
                entry.name.slice(12),
                Math.round(entry.startTime - (first?.startTime ?? 0)),
              ]);
              performance.clearMarks();
              return out;
            }),
          ),
        );
      }
      mirrors.push(elapsed);
    }
    if (profile) {
      const { profile: data } = (await profile.send('Profiler.stop')) as {
        profile: {
          nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
          samples: number[];
          timeDeltas: number[];
        };
      };
      const self = new Map<number, number>();
      data.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (data.timeDeltas[index] ?? 0)));
      const byName = new Map<string, number>();
      for (const node of data.nodes) {
        const key = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
        byName.set(key, (byName.get(key) ?? 0) + (self.get(node.id) ?? 0) / 1000);
      }
      for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 40))
        console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
    }
    console.log(`mirror_turns: ${TURNS} turns`);
    console.log(
      `mirror_5000_turns_ms: ${median(mirrors).toFixed(0)} ms (runs: ${mirrors.map((value) => value.toFixed(0)).join(', ')})`,
    );

    // Live follow: mirror the 20-turn session with "Follow live", then append turns to its file.
    await page.getByTestId('tab-atlas').click();
    await page.getByTestId('atlas-search').fill('/work/live');
    await page.locator(`[data-testid="atlas-session"][data-session-id="${liveId}"]`).click();
    const detail = page.locator(`[data-testid="session-detail"][data-session-id="${liveId}"]`);
    await detail.getByTestId('session-turn').first().waitFor();
    await detail.getByTestId('follow-live').check();
    await detail.getByTestId('mirror-new').click();
    await page.waitForFunction(
      (sessionId) =>
        ((window as WeftWindow).weft.store.getState().graph?.ledgers ?? []).some(
          (ledger) => ledger.sessionId === sessionId && ledger.following,
        ),
      liveId,
      { timeout: 30_000 },
    );
    // The server is watching the file once the follow list has it.
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const follows = (await (await api('/api/atlas/follows')).json()) as { follows: { sessionId: string }[] };
      if (follows.follows.some((follow) => follow.sessionId === liveId)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const latencies: number[] = [];
    for (let round = 0; round < scale(5, 2); round += 1) {
      const turn = 20 + round;
      const text = `Live turn ${turn}: tidy up`;
      const started = performance.now();
      if (process.env.BENCH_PROFILE)
        console.log(
          'append',
          Math.round(started),
          JSON.stringify(await (await api('/api/atlas/follows')).json()),
          JSON.stringify(await page.evaluate(() => (window as WeftWindow).weft.store.getState().toasts)),
        );
      appendFileSync(
        liveFile,
        `${piTurn(turn, `a${turn - 1}`, start + 5_000 + turn * 2000, 'Live turn').join('\n')}\n`,
      );
      await page.waitForFunction(
        (opening) =>
          [...((window as WeftWindow).weft.store.getState().graph?.nodes.values() ?? [])].some(
            (node) => node.kind === 'mirror' && node.question.startsWith(opening),
          ),
        text,
        { timeout: 15_000, polling: 'raf' },
      );
      latencies.push(performance.now() - started);
      await page.waitForTimeout(300);
    }
    console.log(
      `live_append_latency_ms: ${median(latencies).toFixed(0)} ms (runs: ${latencies.map((value) => value.toFixed(0)).join(', ')})`,
    );
    await browser.close();
  } finally {
    console.log(`load_average: ${loadavg()[0]!.toFixed(1)} processes`);
    await closeAtlasService(server.context);
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
