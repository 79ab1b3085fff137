import { ancestors, type Graph, type RerunPlan, type StepOutcome } from '../../core/index.ts';
import type { NodeRunner } from './run-node.ts';
import type { WaveHooks } from './run-wave.ts';
import type { RerunResult } from './weft-state.ts';

/**
 * Issue 31: executes a re-run core planned once (`rerunPlan`): each step through the one node runner, upstream
 * first, under the run's model and name. A step whose upstream step in the run did not complete is left out — it
 * would compile from the person's answer instead of the run's, which is not what the run claims to show. Stop ends
 * the run between steps (and aborts the one streaming, which keeps nothing), so the canvas holds a prefix of the
 * run, every answer in it compiled from the run's own upstream.
 */
export async function runRerun(
  runner: NodeRunner,
  /** The canvas the run was planned on (its wires decide which steps build on which). */
  graph: Graph,
  plan: Pick<RerunPlan, 'runName' | 'model' | 'steps'>,
  hooks: WaveHooks = {},
): Promise<RerunResult> {
  const result: RerunResult = { runName: plan.runName, completed: 0, failed: 0, skipped: 0 };
  const outcomes = new Map<string, StepOutcome>();
  const rerun = { name: plan.runName, model: plan.model };
  for (const { nodeId } of plan.steps) {
    if (hooks.stopped?.()) {
      result.skipped += 1;
      continue;
    }
    let blocked = false;
    for (const id of ancestors(graph, nodeId, 'all'))
      if (outcomes.has(id) && outcomes.get(id) !== 'complete') blocked = true;
    hooks.onStepStart?.(nodeId);
    const outcome = blocked
      ? 'skipped'
      : await runner.runNode({ canvasId: graph.canvas.id, nodeId, lane: 'replay', rerun });
    outcomes.set(nodeId, outcome);
    if (outcome === 'complete') result.completed += 1;
    else if (outcome === 'failed') result.failed += 1;
    else result.skipped += 1;
    hooks.onStepEnd?.(nodeId);
  }
  return result;
}
