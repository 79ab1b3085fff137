/**
 * `npm run bench:memory`: memory's review gate (issue 29.1) in the real app (server in this process, UI in
 * headless Chromium).
 * - inbox_route_10000_ms: `GET /api/memory/inbox?limit=100` (the page's first page) with 10,000 pending proposals
 *   (median of 7).
 * - inbox_open_10000_ms: click the Memory tab → the Inbox drawn with its count and its first proposal rows
 *   (the route, the parse and the first render of the windowed list; median of 5; target ≤ 300).
 * - inbox_open_empty_ms: the same click with the Inbox empty, the baseline of the rest of the Memory page (what
 *   the 10,000 proposals cost is the difference).
 * Then put-asides (issue 29.2, `tombstones-bench.ts`): `tombstone_check_us` over 100,000 tombstones, the log's cold
 * replay, and `recall_plan_p50_ms` beside `recall_plan_with_tombstones_p50_ms` over the recall corpus
 * (`WEFT_BENCH_SCALE` sizes it, 1 = the 1 GB corpus).
 * `WEFT_BENCH_QUICK=1`: 100 proposals, one round each, 10,000 tombstones and a 3 MB corpus (same figure names).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MEMORY_INBOX_FORMAT, type MemoryProposal } from '../../protocol/index.ts';
import { MemoryStore, memoryDirectory } from '../../runtime/memory/index.ts';
import { startServer } from '../../server/index.ts';
import { ensureBuilt, launchChromium, repoRoot } from '../../tests/support/index.ts';
import { announceQuickMode, QUICK, scale } from './quick-mode.ts';
import { runTombstonesBench } from './tombstones-bench.ts';

const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? scale(10_000, 100));

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function print(name: string, value: number, unit: string, digits = 1): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

/** Proposals as the judge leaves them: distinct sentences, each resting on the person's own words in one ask. */
function proposals(count: number): MemoryProposal[] {
  const start = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, index) => {
    const text = `I prefer option ${index} for the build of project ${index % 97}.`;
    return {
      id: `proposal-${index}`,
      at: start + index * 1000,
      text,
      document: 'preferences' as const,
      category: 'preference' as const,
      evidence: 'stated' as const,
      span: text,
      origin: {
        canvasId: `canvas-${index % 50}`,
        nodeId: `node-${index}`,
        versionId: `version-${index}`,
        commitHash: index.toString(16).padStart(64, '0'),
        at: start + index * 1000,
      },
      updates: null,
      path: index % 3 === 0 ? ('judge' as const) : ('rule' as const),
    };
  });
}

async function main(): Promise<void> {
  announceQuickMode();
  ensureBuilt();
  print('cores', availableParallelism(), 'cores', 0);
  print('load_average_1m', loadavg()[0]!, 'load', 2);
  const home = mkdtempSync(join(tmpdir(), 'weft-memory-bench-'));
  // Written through the store the server reads, so the file is exactly what a long-unreviewed Inbox holds.
  const store = new MemoryStore({ directory: memoryDirectory(home), now: Date.now, newId: () => 'bench' });
  await store.update(null, () => ({
    change: { inbox: { format: MEMORY_INBOX_FORMAT, pending: proposals(PROPOSALS) } },
    result: null,
  }));
  const server = await startServer({
    port: 0,
    home,
    staticDir: process.env.BENCH_STATIC ?? join(repoRoot, 'dist/ui'),
    env: {},
    dotenvPath: null,
    ollamaUrl: null,
    logger: { info() {}, warn() {}, error() {} },
  });
  const browser = await launchChromium();
  try {
    const route: number[] = [];
    for (let round = 0; round < scale(7, 1); round += 1) {
      const started = performance.now();
      const response = await fetch(`${server.origin}/api/memory/inbox?limit=100`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      const body = (await response.json()) as { total: number };
      route.push(performance.now() - started);
      if (body.total !== PROPOSALS) throw new Error(`the Inbox holds ${body.total} of ${PROPOSALS}`);
    }
    print('inbox_proposals', PROPOSALS, 'proposals', 0);
    print('inbox_route_10000_ms', median(route), 'ms');

    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="canvas"]', { timeout: 60_000 });
    const openInbox = async (count: number, firstId: string | null): Promise<number> => {
      const open: number[] = [];
      for (let round = 0; round < scale(5, 1); round += 1) {
        const started = performance.now();
        await page.getByTestId('tab-memory').click();
        await page.getByText(`${count} waiting`).waitFor({ timeout: 60_000 });
        // Newest first: the last proposal stored is the first row drawn.
        if (firstId) await page.locator(`[data-proposal-id="${firstId}"]`).waitFor({ timeout: 60_000 });
        else await page.getByText('Nothing waiting for review.').waitFor({ timeout: 60_000 });
        open.push(performance.now() - started);
        const drawn = await page.getByTestId('memory-proposal').count();
        if (drawn > 100) throw new Error(`the Inbox drew ${drawn} rows: it is not windowed`);
        await page.getByTestId('tab-canvas').click();
        await page.getByTestId('memory-page').waitFor({ state: 'detached' });
      }
      return median(open);
    };
    print('inbox_open_10000_ms', await openInbox(PROPOSALS, `proposal-${PROPOSALS - 1}`), 'ms');
    await store.update(null, () => ({ change: { inbox: { format: MEMORY_INBOX_FORMAT, pending: [] } }, result: null }));
    print('inbox_open_empty_ms', await openInbox(0, null), 'ms');
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
await runTombstonesBench({ quick: QUICK });
