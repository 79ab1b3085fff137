import { waveStepRuns, type StepOutcome, type WaveStep } from '../../core/index.ts';
import type { NodeRunner } from './run-node.ts';

export interface WaveHooks {
  /** Checked before each step: true ends the wave (Stop Replay). */
  stopped?: () => boolean;
  onStepStart?: (nodeId: string) => void;
  /** After each step, run or skipped. */
  onStepEnd?: (nodeId: string) => void;
}

/**
 * Executes a wave core planned once (C4, C8): each step through the one node runner, in the planned order,
 * none added on the way — a rerun that completes inside the wave starts no wave of its own. `outcomes`
 * holds how the wave's start ended (an Ask's completion), and collects each step's.
 */
export async function runWave(
  runner: NodeRunner,
  canvasId: string,
  steps: readonly WaveStep[],
  outcomes: Map<string, StepOutcome>,
  hooks: WaveHooks = {},
): Promise<void> {
  for (const step of steps) {
    if (hooks.stopped?.()) break;
    if (waveStepRuns(step, outcomes)) {
      hooks.onStepStart?.(step.nodeId);
      const outcome = await runner.runNode({
        canvasId,
        nodeId: step.nodeId,
        lane: step.lane,
        onlyIfStale: step.lane === 'replay',
      });
      outcomes.set(step.nodeId, outcome);
    } else {
      outcomes.set(step.nodeId, 'skipped');
    }
    hooks.onStepEnd?.(step.nodeId);
  }
}
