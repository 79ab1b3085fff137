// Where first paint goes (issue 16): opens one generated canvas from the server, then reloads it cached, each under
// a CDP CPU profile, and prints the page's `weft:*` performance marks and the top self-time functions of each.
// `WEFT_BENCH_NODES=10000` (chains of 50; default 10,000). Not a benchmark figure: a tool to read before changing.
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { openApp, putCanvas } from './ui-app.ts';
import { chainCanvas } from './ui-canvas.ts';
import { openFromServer, reloadCached, waitUntilCached } from './ui-measure.ts';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
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
const app = await openApp();
try {
  const { page, origin, token } = app;
  const id = `bench-${nodes}`;
  await putCanvas(app, chainCanvas(id, Math.max(1, Math.round(nodes / 50)), 50));
  // The server's part alone: the whole streamed body read in Node.
  for (let run = 0; run < 2; run += 1) {
    const started = performance.now();
    const response = await fetch(`${origin}/api/canvases/${id}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/x-ndjson' },
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
  await app.close();
}
