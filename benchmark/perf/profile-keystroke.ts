// Where a keystroke's time goes in the node panel of a question with 1,000 upstream nodes (issue 16): opens the deep
// chain of bench:ui, opens the panel, and types `WEFT_PROFILE_KEYS` (30) characters while Chromium records a CPU
// profile and a timeline trace (`WEFT_PROFILE_WHAT=panel-open`: three opens of the panel instead). Prints the top self-time functions and the main thread's time by trace event
// (layout, style, paint, timers, script). Not a benchmark (profiling slows the page): it says what to fix, and
// `WEFT_BENCH_ONLY=deep-panel npm run bench:ui` measures the result.
// Run: `npx tsx benchmark/perf/profile-keystroke.ts` (after a renderer build, as bench:ui).
import { writeFileSync } from 'node:fs';
import { openDeepChain } from './measure-deep-panel.ts';
import { openApp } from './ui-app.ts';
import { keystrokes, openPanel } from './ui-measure.ts';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { type?: string } };
};

const KEYS = Number(process.env.WEFT_PROFILE_KEYS ?? 30);
const TOP = 25;
/** `WEFT_PROFILE_WHAT=panel-open`: profiles three opens of the panel instead of typing. */
const PANEL_OPEN = process.env.WEFT_PROFILE_WHAT === 'panel-open';

function topFunctions(profile: Profile): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.split('/').pop() ?? '';
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    const delta = profile.timeDeltas[index] ?? 0;
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(
      ([key, micros]) =>
        `${(micros / 1000).toFixed(1).padStart(8)} ms ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${key}`,
    );
}

/**
 * Main-thread time by trace event, inclusive and self (minus the events nested in it); an event dispatch is named
 * by its DOM event type (`EventDispatch keydown`). RunTask's inclusive time is the thread's busy time.
 */
function mainThreadTime(events: TraceEvent[]): string[] {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  if (!main) return ['(no renderer main thread in the trace)'];
  const own = events
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const sums = new Map<string, { inclusive: number; self: number; count: number }>();
  const open: { end: number; entry: { self: number } }[] = [];
  for (const event of own) {
    while (open.length && open[open.length - 1]!.end <= event.ts) open.pop();
    const type = event.name === 'EventDispatch' ? event.args?.data?.type : undefined;
    const name = type ? `${event.name} ${type}` : event.name;
    const entry = sums.get(name) ?? { inclusive: 0, self: 0, count: 0 };
    entry.inclusive += event.dur!;
    entry.self += event.dur!;
    entry.count += 1;
    sums.set(name, entry);
    if (open.length) open[open.length - 1]!.entry.self -= event.dur!;
    open.push({ end: event.ts + event.dur!, entry });
  }
  return [
    '   inclusive       self  count  event',
    ...[...sums.entries()]
      .sort((a, b) => b[1].self - a[1].self)
      .slice(0, 25)
      .map(
        ([name, { inclusive, self, count }]) =>
          `${(inclusive / 1000).toFixed(1).padStart(9)} ms ${(self / 1000).toFixed(1).padStart(7)} ms ${String(count).padStart(6)}  ${name}`,
      ),
  ];
}

async function main(): Promise<void> {
  const app = await openApp();
  try {
    const started = Date.now();
    const step = (what: string) => console.log(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    const { page, last } = await openDeepChain(app);
    step('deep chain open');
    step(`panel open in ${(await openPanel(page, last)).toFixed(0)} ms`);
    const session = await page.context().newCDPSession(page);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 100 });
    await app.browser.startTracing(page, {
      // `WEFT_PROFILE_CATEGORIES=blink,cc,…` adds trace categories, to see inside the tasks the timeline leaves opaque.
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
        ...(process.env.WEFT_PROFILE_CATEGORIES?.split(',') ?? []),
      ],
    });
    await session.send('Profiler.start');
    const times: number[] = [];
    if (PANEL_OPEN) for (let run = 0; run < 3; run += 1) times.push(await openPanel(page, last));
    else times.push(...(await keystrokes(page, KEYS)));
    const { profile } = (await session.send('Profiler.stop')) as { profile: Profile };
    // `WEFT_PROFILE_CPU=file.cpuprofile` keeps the CPU profile (DevTools' Performance panel opens it).
    if (process.env.WEFT_PROFILE_CPU) writeFileSync(process.env.WEFT_PROFILE_CPU, JSON.stringify(profile));
    const traceText = (await app.browser.stopTracing()).toString();
    // `WEFT_PROFILE_TRACE=file.json` keeps the trace, for chrome://tracing or a closer look.
    if (process.env.WEFT_PROFILE_TRACE) writeFileSync(process.env.WEFT_PROFILE_TRACE, traceText);
    const trace = JSON.parse(traceText) as { traceEvents: TraceEvent[] };
    await session.detach();
    console.log(
      `${PANEL_OPEN ? 'panel opens' : 'keys (keydown to the frame after)'} (ms, profiled): ${times.map((time) => time.toFixed(1)).join(' ')}`,
    );
    console.log('\nTop self time (CPU profile):');
    for (const line of topFunctions(profile)) console.log(line);
    console.log('\nRenderer main thread, top-level trace events:');
    for (const line of mainThreadTime(trace.traceEvents)) console.log(line);
  } finally {
    await app.close();
  }
}

await main();
