import type { AppDependencies } from './app-dependencies.ts';
import { writePlaqueFor } from './plaque-after-ask.ts';
import type { PlaqueActions } from './plaque-types.ts';
import type { StoreRuntime } from './store-runtime.ts';
import type { GetState, SetState } from './weft-state.ts';

export function createPlaqueActions(
  set: SetState,
  get: GetState,
  dependencies: AppDependencies,
  runtime: StoreRuntime,
): PlaqueActions {
  const actions: PlaqueActions = {
    async plaqueAfterAnswer(nodeId, versionId) {
      if (!dependencies.plaques) return false;
      return actions.regeneratePlaque(nodeId, versionId);
    },
    async regeneratePlaque(nodeId, versionId) {
      const graph = get().graph;
      const node = graph?.nodes.get(nodeId);
      const version = node?.kind === 'question' ? node.versions.find((entry) => entry.id === versionId) : undefined;
      if (!graph || !version) return false;
      return writePlaqueFor(set, get, dependencies, runtime, graph, {
        canvasId: graph.canvas.id,
        nodeId,
        versionId,
        question: version.question,
        answer: version.text,
        model: version.model,
        lane: version.agent ? 'agent' : 'chat',
      });
    },
  };
  return actions;
}
