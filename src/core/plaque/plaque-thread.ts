import type { Plaque, QuestionNode } from '../../../protocol/index.ts';
import { incomingWires, type Graph } from '../graph.ts';
import { isLive } from '../live.ts';
import { estimateTokensByLength, type EstimateTokens } from '../tokens.ts';

/** The thread a plaque's writer is shown: at most this many tokens of the ancestors' own plaques. */
export const PLAQUE_THREAD_TOKENS = 1400;

/** The plaque of a question's current version, if it has one. */
export function currentPlaque(node: QuestionNode): Plaque | null {
  return node.versions.find((version) => version.id === node.currentVersionId)?.plaque ?? null;
}

/** One ancestor's line in the thread. */
export function threadLine(plaque: Plaque): string {
  return `${plaque.topic}: ${plaque.takeaway}`;
}

/**
 * The ancestors' own plaques (C32) — nearest first until the budget is spent, returned oldest first — for the
 * model that writes this node's plaque. Archived steps are skipped but the wiring behind them still counts (as in
 * compile); ancestors without a plaque add nothing. Display data only: nothing here reaches a compiled context.
 */
export function plaqueThread(
  graph: Graph,
  nodeId: string,
  options: { estimateTokens?: EstimateTokens; budget?: number } = {},
): string[] {
  const estimate = options.estimateTokens ?? estimateTokensByLength;
  let left = options.budget ?? PLAQUE_THREAD_TOKENS;
  const seen = new Set([nodeId]);
  let frontier = [nodeId];
  const lines: string[] = [];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const wireId of incomingWires(graph, id)) {
        const from = graph.wires.get(wireId)?.from;
        if (from === undefined || seen.has(from)) continue;
        seen.add(from);
        next.push(from);
        const node = graph.nodes.get(from);
        if (!node || !isLive(node) || node.kind !== 'question') continue;
        const plaque = currentPlaque(node);
        if (!plaque) continue;
        const line = threadLine(plaque);
        const cost = estimate(line);
        if (cost > left) return lines.reverse();
        left -= cost;
        lines.push(line);
      }
    }
    frontier = next;
  }
  return lines.reverse();
}
