// What the cached reload's frames do (issue 16): one generated canvas opened, cached, then reloaded under a CDP
// devtools.timeline trace; prints the longest style, layout, paint and script events with their element counts and
// the DOM size after the first card. `WEFT_BENCH_NODES` (default 10,000). A tool to read, not a benchmark figure.
import type { CDPSession } from 'playwright-core';
import { openApp, putCanvas } from './ui-app.ts';
import { chainCanvas } from './ui-canvas.ts';
import { openFromServer, reloadCached, waitUntilCached } from './ui-measure.ts';

interface Profile {
  nodes: {
    id: number;
    parent?: number;
    children?: number[];
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** Self time per function between two trace times (µs), the largest `top`, with each one's caller. */
function window(profile: Profile, from: number, to: number, top = 14): string[] {
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node] as const));
  const name = (id: number | undefined) => {
    const frame = id === undefined ? undefined : byId.get(id)?.callFrame;
    return frame ? `${frame.functionName || '(anon)'}:${frame.lineNumber + 1}` : '-';
  };
  const self = new Map<string, number>();
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    time += profile.timeDeltas[index] ?? 0;
    if (time < from || time > to) continue;
    const id = profile.samples[index]!;
    const key = `${name(id)} < ${name(parents.get(id))} < ${name(parents.get(parents.get(id) ?? -1))}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
  }
  return [...self.entries()]
    .sort((l, r) => r[1] - l[1])
    .slice(0, top)
    .map(([key, ms]) => `${ms.toFixed(0).padStart(6)} ms ${key}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  args?: { beginData?: Record<string, unknown>; elementCount?: number; data?: Record<string, unknown> };
}

async function traced(session: CDPSession, work: () => Promise<unknown>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', (message) => events.push(...(message.value as unknown as TraceEvent[])));
  await session.send('Tracing.start', {
    traceConfig: {
      includedCategories: ['devtools.timeline', 'blink.user_timing', 'v8'],
      recordMode: 'recordAsMuchAsPossible',
    },
  });
  await work();
  const finished = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.end');
  await finished;
  return events;
}

const nodes = Number(process.env.WEFT_BENCH_NODES ?? 10_000);
const app = await openApp();
try {
  const { page } = app;
  const id = `bench-${nodes}`;
  await putCanvas(app, chainCanvas(id, Math.max(1, Math.round(nodes / 50)), 50));
  await openFromServer(page, id);
  await waitUntilCached(page, id);
  const session = await page.context().newCDPSession(page);
  let painted = 0;
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 500 });
  await session.send('Profiler.start');
  const events = await traced(session, async () => {
    painted = await reloadCached(page, id);
  });
  const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: Profile };
  const navigation = events.find((event) => event.name === 'navigationStart' || event.name === 'markerNavigationStart');
  const origin = navigation?.ts ?? Math.min(...events.filter((event) => event.ts > 0).map((event) => event.ts));
  console.log(`cached reload: ${painted.toFixed(0)} ms`);
  const counts = await page.evaluate(() => ({
    elements: document.querySelectorAll('*').length,
    cards: document.querySelectorAll('[data-testid="node-card"]').length,
    edges: document.querySelectorAll('.react-flow__edge').length,
    flowNodes: document.querySelectorAll('.react-flow__node').length,
  }));
  console.log(`DOM after the first card: ${JSON.stringify(counts)}`);
  const wanted = new Set([
    'UpdateLayoutTree',
    'Layout',
    'Paint',
    'PrePaint',
    'Layerize',
    'EvaluateScript',
    'FunctionCall',
    'MajorGC',
    'MinorGC',
    'V8.GC_MC_BACKGROUND_MARKING',
    'ParseHTML',
    'TimerFire',
    'FireAnimationFrame',
    'RunTask',
    'Commit',
    'v8.compile',
    'CompileScript',
  ]);
  const long = events
    .filter((event) => event.ph === 'X' && wanted.has(event.name) && (event.dur ?? 0) > 15_000)
    .sort((left, right) => left.ts - right.ts);
  for (const event of long) {
    const data = event.args?.beginData ?? event.args?.data ?? {};
    const extra = ['elementCount', 'dirtyObjects', 'totalObjects', 'url', 'functionName']
      .filter((key) => data[key] !== undefined || (event.args as Record<string, unknown>)?.[key] !== undefined)
      .map((key) => `${key}=${String(data[key] ?? (event.args as Record<string, unknown>)[key]).slice(-60)}`)
      .join(' ');
    console.log(
      `${((event.ts - origin) / 1000).toFixed(0).padStart(6)} +${((event.dur ?? 0) / 1000).toFixed(0).padStart(5)} ms ${event.name} ${extra}`,
    );
  }
  for (const event of events.filter((event) => event.name.startsWith('weft:') || event.name === 'firstContentfulPaint'))
    console.log(`${((event.ts - origin) / 1000).toFixed(0).padStart(6)} mark ${event.name}`);
  const at = (mark: string) => events.find((event) => event.name === mark)?.ts ?? origin;
  const cuts = [
    origin,
    at('weft:initialise'),
    at('weft:canvas-read'),
    at('weft:canvas-published'),
    at('weft:first-card'),
    origin + painted * 1000,
  ];
  for (let index = 1; index < cuts.length; index += 1) {
    console.log(
      `\n-- ${((cuts[index - 1]! - origin) / 1000).toFixed(0)}..${((cuts[index]! - origin) / 1000).toFixed(0)} ms`,
    );
    console.log(window(profile, cuts[index - 1]!, cuts[index]!).join('\n'));
  }
} finally {
  await app.close();
}
