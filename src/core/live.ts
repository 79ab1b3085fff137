import type { CanvasNode } from '../../protocol/index.ts';

/**
 * The one predicate for archive (C3). Every read path — compile, fingerprints, the stale set,
 * Replay, reruns, auto-rerun, bundles — asks this and nothing else.
 */
export function isLive(node: CanvasNode | undefined | null): boolean {
  return node !== undefined && node !== null && !node.archived;
}
