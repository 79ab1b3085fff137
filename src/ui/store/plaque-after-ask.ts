import { applyChange, plaqueThread, type Graph, type GraphChange } from '../../core/index.ts';
import type { DispatchLane } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishGraph } from './graph-actions.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { updateStoredCanvas } from './stored-canvas.ts';
import type { GetState, SetState } from './weft-state.ts';

export interface PlaqueAsk {
  canvasId: string;
  nodeId: string;
  versionId: string;
  question: string;
  answer: string;
  model: string;
  lane: DispatchLane;
}

/** Applies a `set-plaque` to the open graph without an undo step (a plaque is written for the person, not by them). */
function applyQuietly(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  change: GraphChange,
): void {
  const open = get().graph;
  if (!open) return;
  const now = dependencies.now();
  // The ids drawn are kept with the step, so a replay finds its `plaque` event already saved and adds no second.
  const ids: string[] = [];
  const newId = () => {
    const id = dependencies.newId();
    ids.push(id);
    return id;
  };
  const result = applyChange(open, change, { now, newId });
  // The version may be gone (undone, deleted) by the time its plaque arrives: then there is nothing to label.
  if (!result.ok) return;
  publishGraph(set, get, runtime, result.value.graph, result.value.touched, 'keep', {
    kind: 'change',
    change,
    now,
    ids,
  });
}

/**
 * Writes a version's plaque (C32) — after an ask, fire-and-forget, or when the person asks for a new one: the
 * server asks the answering model for a ladder (shown the ancestors' plaques from `graph`) or takes the rule. The
 * plaque lands on the canvas the version belongs to, open or not. Display only: nothing turns stale.
 */
export async function writePlaqueFor(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  graph: Graph,
  ask: PlaqueAsk,
): Promise<boolean> {
  let change: GraphChange;
  try {
    const { plaque } = await dependencies.api.plaque({
      question: ask.question,
      answer: ask.answer,
      model: ask.model,
      lane: ask.lane === 'agent' ? 'agent' : 'chat',
      thread: plaqueThread(graph, ask.nodeId),
    });
    change = { type: 'set-plaque', nodeId: ask.nodeId, versionId: ask.versionId, plaque };
  } catch (error) {
    const { code, message } = describeError(error);
    get().toast('error', code, `No plaque for this answer: ${message}`);
    return false;
  }
  if (get().graph?.canvas.id === ask.canvasId) {
    applyQuietly(set, get, dependencies, runtime, change);
    return true;
  }
  if (runtime.deletedCanvasIds.has(ask.canvasId)) return false;
  try {
    await updateStoredCanvas(dependencies, ask.canvasId, (stored) => {
      const result = applyChange(stored, change, { now: dependencies.now(), newId: dependencies.newId });
      return result.ok ? result.value.graph : null;
    });
    return true;
  } catch (error) {
    const { code, message } = describeError(error);
    get().toast('error', code, `A plaque could not be saved: ${message}`);
    return false;
  }
}
