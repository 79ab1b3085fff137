import { documentFromGraph, graphFromDocument, rebaseSteps } from '../../core/index.ts';
import type { CanvasDocument } from '../../../protocol/index.ts';
import { ApiClientError } from '../api/index.ts';
import type { CanvasRecords, DurableSaved } from '../db/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { publishGraph } from './graph-actions.ts';
import { recordsFromGraph, type StoreRuntime } from './store-runtime.ts';
import { unappliedAfter } from './unapplied-changes.ts';
import type { GetState, SetState } from './weft-state.ts';

/** How often one save rebases before it gives up (each round means someone else saved in between). */
const REBASE_ROUNDS = 5;

export function isRevisionConflict(error: unknown): boolean {
  return error instanceof ApiClientError && error.code === 'revision-conflict';
}

/**
 * The open canvas's durable save. It names the revision the page's copy is based on; when another tab or tool
 * saved first (409 `revision-conflict`), it reads the newer record, replays this page's unsaved steps onto it
 * through core (`rebaseSteps`), shows the result and saves that — no edit of either writer is lost, and the
 * event log stays one unbroken chain.
 */
export function createDurableSave(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
): (document: CanvasDocument, options: { keepalive: boolean; mark: number }) => Promise<DurableSaved> {
  const { api } = dependencies;

  /** Reads the newer record and puts this page's pending steps on top; returns what to save next. */
  async function rebase(canvasId: string): Promise<{ document: CanvasDocument; mark: number; records: CanvasRecords }> {
    const remote = await api.readCanvas(canvasId);
    const shown = get().graph;
    if (!shown || shown.canvas.id !== canvasId) throw new ApiClientError('revision-conflict', 'The canvas was closed.');
    // From here to the publish nothing awaits, so no local step can slip in between.
    const steps = runtime.journal.pending(canvasId);
    const outcome = rebaseSteps(graphFromDocument(remote.document), steps, dependencies.newId);
    const { graph, dropped } = outcome;
    runtime.revisions.set(canvasId, remote.revision);
    publishGraph(set, get, runtime, graph, undefined, 'reset');
    // Undo history held copies without the other writer's changes: undoing into one would remove them.
    const records = recordsFromGraph(graph);
    runtime.writer.replaceRebased(records);
    const { focusedNodeId, selectedNodeIds } = get();
    set({
      focusedNodeId: focusedNodeId && graph.nodes.has(focusedNodeId) ? focusedNodeId : null,
      selectedNodeIds: selectedNodeIds.filter((nodeId) => graph.nodes.has(nodeId)),
    });
    // What could not be applied is listed (with what was kept) until the person dismisses it.
    if (dropped.length > 0) set({ unapplied: unappliedAfter(graph.canvas, steps, outcome, shown) });
    else
      get().toast(
        'info',
        'canvas-merged',
        `“${graph.canvas.name}” was also changed elsewhere; your changes were added on top.`,
      );
    return { document: documentFromGraph(graph), mark: runtime.journal.current(), records };
  }

  return async function saveDurable(document, options) {
    const canvasId = document.canvas.id;
    let next: { document: CanvasDocument; mark: number; records?: CanvasRecords } = { document, mark: options.mark };
    for (let round = 0; ; round += 1) {
      try {
        const saved = await api.putCanvas(next.document, {
          keepalive: options.keepalive,
          baseRevision: runtime.revisions.get(canvasId) ?? null,
        });
        runtime.journal.acknowledge(canvasId, next.mark);
        // A rebased save stored the records the rebase handed to the writer, not the ones it was given.
        return { revision: saved.revision, mark: next.mark, ...(next.records ? { records: next.records } : {}) };
      } catch (error) {
        // A save on page hide cannot wait for a rebase; the next visit's first save does it.
        if (!isRevisionConflict(error) || options.keepalive || round >= REBASE_ROUNDS) throw error;
        next = await rebase(canvasId);
      }
    }
  };
}
