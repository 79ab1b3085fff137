import { shownStale, staleTrackerInSteps, type Graph, type StaleTracker } from '../../core/index.ts';
import { pauseForPage } from '../db/index.ts';
import { publishGraph } from './graph-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import type { GetState, SetState } from './weft-state.ts';

/** Above this many nodes a canvas paints before its staleness is worked out (as the canvas view's large canvas). */
export const DEFER_STALENESS_ABOVE = 300;
/** Nodes checked between turns given to the page (tens of milliseconds). */
const NODES_PER_STEP = 250;

type Frame = (callback: () => void) => number;

/**
 * Once the page is ready (the canvas view mounts only then) and two frames later, so its first cards are painted
 * first; the next tasks where there are no frames (tests). Stops asking when `wanted` turns false.
 */
function afterFirstPaint(get: GetState, wanted: () => boolean, work: () => void): void {
  const frame = (globalThis as { requestAnimationFrame?: Frame }).requestAnimationFrame;
  const next = (step: () => void) => (frame ? frame(step) : setTimeout(step, 0));
  let frames = 0;
  const step = () => {
    if (!wanted()) return;
    if (get().ready) frames += 1;
    if (frames < 2) return void next(step);
    setTimeout(work, 0);
  };
  next(step);
}

/** The opened graph's staleness, as `publishGraph` publishes a reset (nothing was shown before it). */
function publishStaleness(set: SetState, get: GetState, runtime: StoreRuntime, graph: Graph, tracker: StaleTracker) {
  runtime.tracker = tracker;
  set({
    shown: shownStale(graph, tracker),
    stale: new Set(tracker.stale),
    questionEdited: new Set(tracker.questionEdited),
    fingerprints: new Map(tracker.fingerprints),
  });
  runtime.pendingJudgement = runtime.judgeNewlyStale(new Set());
}

/**
 * Publishes a canvas just opened. A large one is shown at once with no answer marked stale; its staleness (a
 * fingerprint per answer, about a second at 10,000 nodes) is worked out once the first cards are painted, a few
 * hundred nodes at a time with the page given turns between them, and published at the end: the first screenful
 * neither waits for it nor freezes after it. Any change made before then first finishes it at once
 * (`runtime.settleStaleness`, called by `publishGraph`), so what the judge is asked about is the same as if the
 * canvas had been checked on opening.
 */
export function publishOpenedGraph(
  set: SetState,
  get: GetState,
  runtime: StoreRuntime,
  graph: Graph,
  pause: () => Promise<void> = pauseForPage,
): void {
  runtime.settleStaleness = null;
  if (graph.nodes.size <= DEFER_STALENESS_ABOVE) return publishGraph(set, get, runtime, graph, undefined, 'reset');
  runtime.tracker = null;
  set({
    graph,
    shown: new Set(),
    stale: new Set(),
    questionEdited: new Set(),
    fingerprints: new Map(),
    past: [],
    future: [],
  });
  // Issue 31: rubrics never judged (a version written while this page was away) go to the judge, as on any open.
  runtime.judgeRubrics();
  const steps = staleTrackerInSteps(graph, NODES_PER_STEP);
  const wanted = () => runtime.settleStaleness === settle;
  const done = (tracker: StaleTracker) => {
    runtime.settleStaleness = null;
    if (get().graph === graph && !runtime.tracker) publishStaleness(set, get, runtime, graph, tracker);
  };
  const settle = () => {
    if (!wanted()) return;
    let step = steps.next();
    while (!step.done) step = steps.next();
    done(step.value);
  };
  runtime.settleStaleness = settle;
  afterFirstPaint(get, wanted, () => {
    void (async () => {
      while (wanted()) {
        const step = steps.next();
        if (step.done) return done(step.value);
        await pause();
      }
    })();
  });
}
