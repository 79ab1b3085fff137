import type { GraphChange } from '../../core/index.ts';
import type { WeftState } from './weft-state.ts';

/**
 * An agent turn that ends after the person switched canvas still has its commit recorded on its own canvas; its
 * decisions and answer wait here, keyed by canvas id, and are applied when that canvas is opened again (in this
 * window: they are not written anywhere else, the runtime's own session file keeps the turn too).
 */
const kept = new Map<string, { nodeId: string; changes: GraphChange[] }[]>();

export function keepAgentAnswer(canvasId: string, nodeId: string, changes: GraphChange[]): void {
  kept.set(canvasId, [...(kept.get(canvasId) ?? []), { nodeId, changes }]);
}

/** Called when a canvas is opened: applies what its agent turns left while it was closed. */
export function applyKeptAgentAnswers(state: WeftState): void {
  const canvasId = state.graph?.canvas.id;
  const waiting = canvasId ? kept.get(canvasId) : undefined;
  if (!canvasId || !waiting) return;
  kept.delete(canvasId);
  for (const { nodeId, changes } of waiting) {
    if (!state.graph?.nodes.has(nodeId)) {
      state.toast(
        'error',
        'agent-node-gone',
        'An agent answer arrived for a node that no longer exists; it was not kept.',
      );
      continue;
    }
    for (const change of changes) state.apply(change);
  }
}
