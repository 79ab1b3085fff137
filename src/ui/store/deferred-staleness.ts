import type { Graph } from '../../core/index.ts';
import { publishGraph } from './graph-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import type { GetState, SetState } from './weft-state.ts';

/** Above this many nodes a canvas paints before its staleness is worked out (as the canvas view's large canvas). */
export const DEFER_STALENESS_ABOVE = 300;

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

/**
 * Publishes a canvas just opened. A large one is shown at once with no answer marked stale, and its staleness (a
 * fingerprint per answer, about a second at 10,000 nodes) is published once the first cards are painted: the first screenful
 * does not wait for it. Any change made before then first settles the opened graph's staleness
 * (`runtime.settleStaleness`, called by `publishGraph`), so what the judge is asked about is the same as if the
 * canvas had been checked on opening.
 */
export function publishOpenedGraph(set: SetState, get: GetState, runtime: StoreRuntime, graph: Graph): void {
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
  const settle = () => {
    if (runtime.settleStaleness !== settle) return;
    runtime.settleStaleness = null;
    if (get().graph === graph && !runtime.tracker) publishGraph(set, get, runtime, graph, undefined, 'reset');
  };
  runtime.settleStaleness = settle;
  afterFirstPaint(get, () => runtime.settleStaleness === settle, settle);
}
