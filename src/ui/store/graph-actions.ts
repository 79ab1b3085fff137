import {
  applyChange,
  narrowStep,
  shownStale,
  StaleTracker,
  type Graph,
  type GraphChange,
  type LocalStep,
} from '../../core/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { nodeTitle } from './node-labels.ts';
import { recordsFromGraph, type StoreRuntime } from './store-runtime.ts';
import type { GetState, SetState, WeftState } from './weft-state.ts';

const UNDO_LIMIT = 200;

/** Publishes a new graph: stale sets via core, then persistence of the touched rows. */
export function publishGraph(
  set: SetState,
  get: GetState,
  runtime: StoreRuntime,
  next: Graph,
  touched: Iterable<string> | undefined,
  history: 'push' | 'keep' | 'reset',
  step?: LocalStep,
): void {
  runtime.settleStaleness?.();
  const previous = get().graph;
  // What the judge has already had its chance at: shown before, and not only for a question edit (never judged).
  const previousQuestionEdited = get().questionEdited;
  const previousShown = new Set([...get().shown].filter((id) => !previousQuestionEdited.has(id)));
  if (!runtime.tracker || history === 'reset') runtime.tracker = new StaleTracker(next);
  runtime.tracker.update(next, touched);
  const tracker = runtime.tracker;
  const patch: Partial<WeftState> = {
    graph: next,
    shown: shownStale(next, tracker),
    stale: new Set(tracker.stale),
    questionEdited: new Set(tracker.questionEdited),
    fingerprints: new Map(tracker.fingerprints),
  };
  if (history === 'push' && previous) {
    patch.past = [...get().past, previous].slice(-UNDO_LIMIT);
    patch.future = [];
  } else if (history === 'reset') {
    patch.past = [];
    patch.future = [];
  }
  set(patch);
  // Every step is journaled until the durable record holds it, so a save refused as stale can replay it (409).
  if (history !== 'reset') {
    const journaled: LocalStep = step ?? {
      kind: 'snapshot',
      before: previous && previous.canvas.id === next.canvas.id ? previous : next,
      after: next,
    };
    const position = runtime.journal.record(next.canvas.id, journaled);
    // Kept in IndexedDB with the rows it changed until the server acknowledges it: a tab closed first replays it.
    runtime.writer.schedule(recordsFromGraph(next), position, {
      canvasId: next.canvas.id,
      owner: runtime.owner,
      position,
      baseRevision: runtime.revisions.get(next.canvas.id) ?? null,
      step: narrowStep(journaled),
    });
  }
  runtime.pendingJudgement = runtime.judgeNewlyStale(history === 'reset' ? new Set() : previousShown);
  // Issue 31: rubrics of new versions (the touched questions; the whole canvas when it is opened) go to the judge.
  runtime.judgeRubrics(history === 'reset' ? undefined : touched);
}

/** Undo and redo restore nodes and wires but keep the event log as it is now (C10: it survives undo). */
function withCurrentLog(restored: Graph, current: Graph): Graph {
  return { ...restored, events: current.events };
}

export function createGraphActions(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
): Pick<WeftState, 'apply' | 'undo' | 'redo'> {
  return {
    apply(change: GraphChange): boolean {
      const graph = get().graph;
      if (!graph) return false;
      // The clock and ids the change draws are kept with it, so a replay onto a newer record makes the same ids.
      const now = dependencies.now();
      const ids: string[] = [];
      const newId = () => {
        const id = dependencies.newId();
        ids.push(id);
        return id;
      };
      const result = applyChange(graph, change, { now, newId });
      if (!result.ok) {
        const path = result.error.code === 'cycle' ? result.error.details.path : undefined;
        // Name the loop by the nodes' titles, not their ids.
        const message = path
          ? `This wire would close a loop: ${path.map((id) => `“${nodeTitle(graph.nodes.get(id))}”`).join(' → ')}. Canvases are acyclic.`
          : result.error.message;
        get().toast('error', result.error.code, message);
        return false;
      }
      publishGraph(set, get, runtime, result.value.graph, result.value.touched, 'push', {
        kind: 'change',
        change,
        now,
        ids,
      });
      return true;
    },
    undo(): void {
      const { past, future, graph } = get();
      const previous = past[past.length - 1];
      if (!graph || !previous) return;
      publishGraph(set, get, runtime, withCurrentLog(previous, graph), undefined, 'keep');
      set({ past: past.slice(0, -1), future: [graph, ...future] });
    },
    redo(): void {
      const { past, future, graph } = get();
      const next = future[0];
      if (!graph || !next) return;
      publishGraph(set, get, runtime, withCurrentLog(next, graph), undefined, 'keep');
      set({ past: [...past, graph], future: future.slice(1) });
    },
  };
}
