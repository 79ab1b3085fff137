import type { StaleDismissal } from '../../protocol/index.ts';
import type { Graph } from './graph.ts';
import type { StaleState } from './stale-tracker.ts';

/** The judge dismisses below this probability (C7). */
export const DISMISS_BELOW = 0.5;

/**
 * The dismissal that applies to a node now: keyed on the fingerprint it judged, so a later
 * upstream change brings the mark back. Null when none applies (or a person overruled it).
 */
export function activeDismissal(graph: Graph, nodeId: string, fingerprint: string | undefined): StaleDismissal | null {
  if (fingerprint === undefined) return null;
  let found: StaleDismissal | null = null;
  for (const dismissal of graph.dismissals) {
    if (dismissal.nodeId === nodeId && dismissal.fingerprint === fingerprint) found = dismissal;
  }
  if (!found || found.overruled || found.probability >= DISMISS_BELOW) return null;
  return found;
}

/**
 * C7: the one set the badge, the preview, every request and Replay read: stale − dismissed. A
 * judge rules only on upstream changes; an answer whose own question the person edited stays
 * shown whatever a dismissal of its fingerprint says (the judge is not asked about it either).
 */
export function shownStale(graph: Graph, state: StaleState): Set<string> {
  const shown = new Set<string>();
  for (const nodeId of state.stale) {
    if (state.questionEdited.has(nodeId) || !activeDismissal(graph, nodeId, state.fingerprints.get(nodeId)))
      shown.add(nodeId);
  }
  return shown;
}
