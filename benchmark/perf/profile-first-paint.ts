// Where first paint goes (issue 16): opens one generated canvas from the server, then reloads it cached, each under
// a CDP CPU profile, and prints the page's `weft:*` performance marks and the top self-time functions of each.
// `WEFT_BENCH_NODES=10000` (chains of 50; default 10,000). Not a benchmark figure: a tool to read before changing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { ensureBuilt, launchChromium, repoRoot } from '../../tests/support/index.ts';
import { chainCanvas } from './ui-canvas.ts';
import { openFromServer, reloadCached, waitUntilCached } from './ui-measure.ts';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

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

/** Self time per function (name + place), the `top` largest, in ms. */
function summarise(profile: Profile, top = 25): string[] {
  const self = new Map<number, number>();
  for (let index = 0; index < profile.samples.length; index += 1)
    self.set(profile.samples[index]!, (self.get(profile.samples[index]!) ?? 0) + (profile.timeDeltas[index] ?? 0));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    byName.set(name, (byName.get(name) ?? 0) + (self.get(node.id) ?? 0) / 1000);
  }
  const total = [...byName.values()].reduce((sum, value) => sum + value, 0);
  return [
    `total sampled ${total.toFixed(0)} ms`,
    ...[...byName.entries()]
      .sort((left, right) => right[1] - left[1])
      .slice(0, top)
      .map(([name, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${name}`),
  ];
}

async function marks(page: Page): Promise<string> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('mark')
      .filter((entry) => entry.name.startsWith('weft:'))
      .map((entry) => `${entry.name} ${Math.round(entry.startTime)}`)
      .join('\n'),
  );
}

async function profiled<T>(session: CDPSession, work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 500 });
  await session.send('Profiler.start');
  const result = await work();
  const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: Profile };
  return { result, lines: summarise(profile) };
}

const nodes = Number(process.env.WEFT_BENCH_NODES ?? 10_000);
const home = mkdtempSync(path.join(tmpdir(), 'weft-profile-'));
const { child, url } = await startApp(home);
const browser = await launchChromium();
try {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(url.href);
  await page.waitForSelector('[data-testid="canvas"]', { timeout: 60_000 });
  const id = `bench-${nodes}`;
  const document = chainCanvas(id, Math.max(1, Math.round(nodes / 50)), 50);
  const put = await fetch(`${url.origin}/api/canvases/${id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${url.searchParams.get('token')!}`, 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  if (!put.ok) throw new Error(`PUT failed: ${put.status}`);
  // The server's part alone: the whole streamed body read in Node.
  for (let run = 0; run < 2; run += 1) {
    const started = performance.now();
    const response = await fetch(`${url.origin}/api/canvases/${id}`, {
      headers: { authorization: `Bearer ${url.searchParams.get('token')!}`, accept: 'application/x-ndjson' },
    });
    const bytes = (await response.arrayBuffer()).byteLength;
    console.log(`server GET (ndjson) run ${run}: ${(performance.now() - started).toFixed(0)} ms, ${bytes} bytes`);
  }
  const session = await page.context().newCDPSession(page);
  await page.evaluate(() => performance.clearMarks());
  const server = await profiled(session, () => openFromServer(page, id));
  console.log(`\n== from the server: ${server.result.toFixed(0)} ms\n${await marks(page)}`);
  console.log(server.lines.join('\n'));
  // Let the cache fill end (the canvas row is written last), so the reload reads IndexedDB.
  const filled = performance.now();
  await waitUntilCached(page, id);
  console.log(`cache filled ${(performance.now() - filled).toFixed(0)} ms after the paint`);
  for (let round = 0; round < 2; round += 1) {
    const cached = await profiled(session, () => reloadCached(page, id));
    console.log(`\n== cached reload ${round}: ${cached.result.toFixed(0)} ms\n${await marks(page)}`);
    console.log(cached.lines.join('\n'));
  }
} finally {
  await browser.close().catch(() => {});
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(home, { recursive: true, force: true });
}
