import { diffUpstreamParts, upstreamParts, type Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import type { DecideRequest } from '../../../protocol/http-api.ts';
import type { AppDependencies } from './app-dependencies.ts';
import type { GetState } from './weft-state.ts';

/** `default` = the change bears on the answer (the rule fallback keeps the mark); `unrelated` = it does not. */
export const STALE_OPTIONS = ['default', 'unrelated'] as const;

const clip = (text: string, length: number) => (text.length > length ? text.slice(0, length - 1) + '…' : text);

/** What the judge reads: the question, the answer's opening and each upstream part before and after. */
export function staleDecision(graph: Graph, node: QuestionNode): DecideRequest | null {
  const version = node.versions.find((candidate) => candidate.id === node.currentVersionId);
  if (!version) return null;
  const diff = diffUpstreamParts(version.upstreamParts, upstreamParts(graph, node.id));
  const lines = [
    ...diff.changed.map((entry) => `Changed upstream part:\n  before: ${entry.before.opening}\n  after:  ${entry.after.opening}`),
    ...diff.added.map((part) => `Added upstream part: ${part.opening}`),
    ...diff.removed.map((part) => `Removed upstream part: ${part.opening}`),
  ];
  if (lines.length === 0) return null;
  return {
    kind: 'stale',
    prompt: `An answer was written against an earlier version of its upstream context. Does the change bear on the answer?\n\nQuestion: ${clip(version.question, 500)}\nAnswer (opening): ${clip(version.text, 600)}\n\n${lines.join('\n')}\n\nOptions: "default" = the change bears on the answer (keep the stale mark); "unrelated" = it does not.`,
    options: [...STALE_OPTIONS],
  };
}

/**
 * C7: asks the configured judge about each answer that has just become stale. A verdict becomes a
 * `set-dismissal` change (core decides what dismisses and writes the event); a rule fallback is not a
 * verdict and records nothing. Each node is judged once per fingerprint.
 */
export function createStaleJudge(get: GetState, dependencies: AppDependencies) {
  const judged = new Set<string>();
  return async function judgeNewlyStale(previousShown: ReadonlySet<string>): Promise<void> {
    const state = get();
    if (!state.settings?.judgeModelId || !state.graph) return;
    for (const nodeId of state.shown) {
      if (previousShown.has(nodeId)) continue;
      const fingerprint = state.fingerprints.get(nodeId);
      const node = state.graph.nodes.get(nodeId);
      if (!fingerprint || !node || node.kind !== 'question' || judged.has(`${nodeId}:${fingerprint}`)) continue;
      const request = staleDecision(state.graph, node);
      if (!request) continue;
      judged.add(`${nodeId}:${fingerprint}`);
      try {
        const verdict = await dependencies.api.decide(request);
        const bears = verdict.probabilities.default;
        if (verdict.fallback || bears === undefined) continue;
        const reason = `${verdict.model ?? 'judge'}: ${Math.round(bears * 100)}% that the upstream change bears on this answer.`;
        get().apply({ type: 'set-dismissal', nodeId, fingerprint, probability: bears, reason });
      } catch {
        // No verdict: the mark stays (the judge is optional, C13).
      }
    }
  };
}
