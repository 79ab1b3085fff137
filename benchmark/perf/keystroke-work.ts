// The main thread's work per keystroke, from a Chromium trace (issue 16's `keystroke_p95_*` figures): what a key
// costs the page, without the idle wait for the next vsync that a key-to-next-frame time always includes.
import type { Browser, Page } from 'playwright-core';

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string } };
};

/** The DOM events one typed character dispatches (keydown … keyup, and the caret's selectionchange after it). */
const KEY_EVENTS = new Set(['keydown', 'keypress', 'beforeinput', 'textInput', 'input', 'keyup', 'selectionchange']);

type Task = { start: number; end: number; events: Set<string>; frame: boolean };

/**
 * Per key, in ms: the sum of the renderer main thread's top-level tasks from the task that dispatches the key's
 * keydown through the end of the first frame (a task that commits to the compositor) after the last of the key's
 * events; idle time between those tasks — the wait for vsync — is not counted. Every task in that span counts, the
 * page's own (a timer, a GC) and the benchmark's included; work a key schedules for after that frame (an effect, a
 * timer that fires later) is not, so the figure is the key's cost to its own frame, with `keystroke_to_frame_*`
 * (key to next painted frame) printed beside it.
 */
export function workPerKey(events: readonly TraceEvent[]): number[] {
  const mains = events.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  if (mains.length === 0) throw new Error('the trace has no renderer main thread');
  // The browser traces every renderer it runs (other pages' too): the typed page's is the one its keys reached.
  return mains
    .map((main) => workOnThread(events, main))
    .reduce((most, work) => (work.length > most.length ? work : most));
}

function workOnThread(events: readonly TraceEvent[], main: TraceEvent): number[] {
  const own = events
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const tasks: Task[] = [];
  for (const event of own) {
    const last = tasks[tasks.length - 1];
    if (event.name === 'RunTask' && (!last || event.ts >= last.end))
      tasks.push({ start: event.ts, end: event.ts + event.dur!, events: new Set(), frame: false });
    else if (last && event.ts < last.end) {
      if (event.name === 'EventDispatch' && event.args?.data?.type) last.events.add(event.args.data.type);
      if (event.name === 'Commit') last.frame = true;
    }
  }
  const keys = tasks.flatMap((task, index) => (task.events.has('keydown') ? [index] : []));
  return keys.map((first, order) => {
    const stop = keys[order + 1] ?? tasks.length;
    let lastEvent = first;
    for (let index = first; index < stop; index += 1)
      if ([...tasks[index]!.events].some((type) => KEY_EVENTS.has(type))) lastEvent = index;
    let end = lastEvent;
    for (let index = lastEvent + 1; index < stop; index += 1)
      if (tasks[index]!.frame) {
        end = index;
        break;
      }
    let micros = 0;
    for (let index = first; index <= end; index += 1) micros += tasks[index]!.end - tasks[index]!.start;
    return micros / 1000;
  });
}

/**
 * Types `count` characters into the focused question while Chromium traces the page's main thread; after each key
 * the page shows two frames and rests 20 ms, so a key's span never reaches the next key. Returns `workPerKey`.
 */
export async function keystrokeWork(browser: Browser, page: Page, count: number): Promise<number[]> {
  await page.getByTestId('question-input').click();
  await page.keyboard.press('End');
  const frames = () =>
    page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await frames();
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  for (let index = 0; index < count; index += 1) {
    await page.keyboard.type('x');
    await frames();
    await page.waitForTimeout(20);
  }
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const work = workPerKey(trace.traceEvents);
  if (work.length !== count) throw new Error(`traced ${work.length} keydowns for ${count} keys`);
  return work;
}
