import type { Completeness, KnownAs } from '../../../protocol/index.ts';

/** How a stored turn is known (#29), and how it was cut short when it was. */
export interface TurnKnowledge {
  knownAs: KnownAs;
  completeness: Completeness | null;
}

/**
 * #29: a turn read from its session file as written is `observed`. One the runner marked interrupted (`status`
 * `interrupted…`: its answer stops where the session was cut, and a resumed session rebuilt what followed) or whose
 * text the index cut at its cap (`clipped`) is `reconstructed`, with the cut named. Recall takes both; the block
 * marks the second.
 */
export function turnKnownAs(status: string | null | undefined, clipped: boolean): TurnKnowledge {
  if (status?.startsWith('interrupted')) return { knownAs: 'reconstructed', completeness: 'interrupted' };
  if (clipped) return { knownAs: 'reconstructed', completeness: 'truncated' };
  return { knownAs: 'observed', completeness: null };
}
