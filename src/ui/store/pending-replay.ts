import { rebaseSteps, type Graph, type LocalStep } from '../../core/index.ts';
import { claimPending } from '../db/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { unappliedAfter, type UnappliedChanges } from './unapplied-changes.ts';

export interface TakenOver {
  /** The loaded canvas with the taken-over steps on it. */
  graph: Graph;
  steps: number;
  unapplied: UnappliedChanges | null;
}

/**
 * A canvas being opened: the steps a closed or reloaded page (this one's earlier visit included) left
 * unacknowledged in IndexedDB become this page's journal, and are put on what was loaded through core's
 * `rebaseSteps` — the one replay path. Rows written with their steps already hold them (their events are in the
 * log, so nothing is applied twice); rows the server's record replaced since, or a canvas read from the server, get
 * them replayed. The caller saves at once: the save names the revision the rows are based on, and a 409 replays the
 * same journal onto the newer record (`durable-save.ts`). Null when nothing was pending.
 */
export async function takeOverPending(
  dependencies: AppDependencies,
  runtime: StoreRuntime,
  loaded: Graph,
): Promise<TakenOver | null> {
  const canvasId = loaded.canvas.id;
  const live = (await dependencies.pageLocks?.live()) ?? new Set<string>();
  const first = runtime.journal.current() + 1;
  const rows = await claimPending(dependencies.database, canvasId, runtime.owner, live, first);
  if (rows.length === 0) return null;
  const entries = rows.map((row) => ({ position: row.position, step: row.step as LocalStep }));
  runtime.journal.restore(canvasId, entries);
  const steps = entries.map((entry) => entry.step);
  const outcome = rebaseSteps(loaded, steps, dependencies.newId);
  return {
    graph: outcome.graph,
    steps: steps.length,
    unapplied: unappliedAfter(loaded.canvas, steps, outcome, loaded),
  };
}
