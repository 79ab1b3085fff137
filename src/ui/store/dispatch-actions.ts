import { autoRerunWave, replayWave, rerunAllowed, rerunPlan } from '../../core/index.ts';
import { agentModel } from './agent-plan.ts';
import { runAgentTurn, stopAgentTurn } from './run-agent-turn.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { createNodeRunner, runKey } from './run-node.ts';
import { runModelSet } from './run-model-set.ts';
import { runRerun } from './run-rerun.ts';
import { runWave } from './run-wave.ts';
import type { StoreRuntime } from './store-runtime.ts';
import type { GetState, SetState, WeftState } from './weft-state.ts';

type DispatchActions = Pick<
  WeftState,
  'ask' | 'askSet' | 'stop' | 'openReplayDialog' | 'replayStale' | 'stopReplay' | 'rerunUnder'
>;

/** Ask, Stop and Replay: thin actions over the one node runner and core's wave plans. */
export function createDispatchActions(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
): DispatchActions {
  const runner = createNodeRunner(set, get, dependencies, runtime);

  function setReplay(update: (replay: NonNullable<WeftState['replay']>) => Partial<NonNullable<WeftState['replay']>>) {
    set((state) => ({ replay: state.replay && { ...state.replay, ...update(state.replay) } }));
  }

  return {
    async ask(nodeId, options = {}) {
      const state = get();
      const graph = state.graph;
      const node = graph?.nodes.get(nodeId);
      const verdict = rerunAllowed(node);
      if (!graph || !node || node.kind !== 'question' || !verdict.ok) {
        state.toast(
          'error',
          verdict.ok ? 'not-runnable' : verdict.code,
          verdict.ok ? 'Only question nodes can be asked.' : verdict.reason,
        );
        return false;
      }
      if (!node.question.trim()) {
        state.toast('error', 'empty-question', 'Write a question before asking.');
        return false;
      }
      // C24: an agent-lane node hands its context to Pi or Codex instead of a model call.
      if (agentModel(node.model)) return runAgentTurn({ getState: get }, nodeId);
      const canvasId = graph.canvas.id;
      const outcome = await runner.runNode({
        canvasId,
        nodeId,
        lane: options.lane ?? 'chat',
        branchOf: options.branchOf ?? null,
      });
      if (outcome !== 'complete') return false;
      // C4: one wave below this completion, planned once by core, in the canvas the answer belongs to.
      const after = await runner.canvasGraph(canvasId);
      if (after) await runWave(runner, canvasId, autoRerunWave(after.graph, nodeId), new Map([[nodeId, outcome]]));
      return true;
    },
    async askSet(nodeId) {
      const node = get().graph?.nodes.get(nodeId);
      const modelSet = node?.kind === 'question' ? node.modelSet : undefined;
      // The chip says what runs ("Asking 3 models…"); a Replay or re-run already running keeps its own chip.
      const progress: NonNullable<WeftState['replay']> | null =
        modelSet && !get().replay?.running
          ? {
              job: { kind: 'set', models: modelSet.models.length },
              total: modelSet.models.length * modelSet.samples,
              done: 0,
              currentNodeId: nodeId,
              running: true,
            }
          : null;
      if (progress) {
        runtime.replayStopped = false;
        set({ replay: progress });
      }
      try {
        return await runModelSet(set, get, dependencies, runtime, nodeId);
      } finally {
        if (progress && get().replay === progress)
          set({ replay: { ...progress, running: false, currentNodeId: null } });
      }
    },
    stop(nodeId) {
      stopAgentTurn(nodeId);
      const canvasId = get().graph?.canvas.id;
      if (canvasId) runtime.aborts.get(runKey(canvasId, nodeId))?.abort();
    },
    openReplayDialog(open) {
      set({ replayDialogOpen: open });
    },
    async replayStale(skipped) {
      const { graph, shown } = get();
      if (!graph) return;
      // C8: the Replay is one wave — the shown stale set and the auto-reruns below it — planned once.
      const steps = replayWave(graph, shown, skipped);
      runtime.replayStopped = false;
      set({
        replayDialogOpen: false,
        replay: { job: { kind: 'replay' }, total: steps.length, done: 0, currentNodeId: null, running: true },
      });
      // If the person switches canvases, the rest is replayed into the canvas the Replay started in.
      await runWave(runner, graph.canvas.id, steps, new Map(), {
        stopped: () => runtime.replayStopped,
        onStepStart: (nodeId) => setReplay(() => ({ currentNodeId: nodeId })),
        onStepEnd: () => setReplay((replay) => ({ done: replay.done + 1 })),
      });
      setReplay(() => ({ running: false, currentNodeId: null }));
    },
    async rerunUnder(selection, model, runName) {
      const { graph } = get();
      if (!graph) return null;
      const plan = rerunPlan(graph, selection, { model, runName });
      if (plan.refusal) {
        get().toast('error', 'rerun-refused', plan.refusal);
        return null;
      }
      runtime.replayStopped = false;
      set({
        replay: { job: { kind: 'rerun', model }, total: plan.count, done: 0, currentNodeId: null, running: true },
      });
      const result = await runRerun(runner, graph, plan, {
        stopped: () => runtime.replayStopped,
        onStepStart: (nodeId) => setReplay(() => ({ currentNodeId: nodeId })),
        onStepEnd: () => setReplay((replay) => ({ done: replay.done + 1 })),
      });
      setReplay(() => ({ running: false, currentNodeId: null }));
      return result;
    },
    stopReplay() {
      runtime.replayStopped = true;
      for (const controller of runtime.aborts.values()) controller.abort();
    },
  };
}
