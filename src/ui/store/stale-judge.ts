import { staleDecision } from '../../core/index.ts';
import type { AppDependencies } from './app-dependencies.ts';
import type { GetState } from './weft-state.ts';

/**
 * C7: asks the configured judge about each answer that has just become stale. A verdict becomes a
 * `set-dismissal` change (core decides what dismisses and writes the event); a rule fallback is not a
 * verdict and records nothing. Each node is judged once per fingerprint, and only about upstream changes.
 */
export function createStaleJudge(
  get: GetState,
  dependencies: AppDependencies,
  settingsRead: () => Promise<void> | undefined = () => undefined,
) {
  const judged = new Set<string>();
  return async function judgeNewlyStale(previousShown: ReadonlySet<string>): Promise<void> {
    // What was newly shown at the call; the settings are read beside the first canvas, so a change made before they
    // arrive is judged (about the same state) once they have.
    let state = get();
    const read = settingsRead();
    if (read && !state.settings) {
      await read;
      state = { ...state, settings: get().settings };
    }
    if (!state.settings?.judgeModelId || !state.graph) return;
    for (const nodeId of state.shown) {
      if (previousShown.has(nodeId)) continue;
      const fingerprint = state.fingerprints.get(nodeId);
      const node = state.graph.nodes.get(nodeId);
      if (!fingerprint || !node || node.kind !== 'question' || judged.has(`${nodeId}:${fingerprint}`)) continue;
      // Null too for an answer whose own question was edited: a person's edit is never judged away (core's rule).
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
