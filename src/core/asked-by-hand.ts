import type { CanvasNode } from '../../protocol/index.ts';

/** Why a node runs only when the person asks it; null when Replay and auto-rerun may run it unattended. */
export function askedByHandReason(node: CanvasNode | undefined): string | null {
  // C24: an agent-lane node hands its turn to Pi or Codex, which write files, so it never runs unattended.
  if (node?.kind === 'question' && /^agent:/.test(node.model ?? ''))
    return 'Asked by hand (agent lane): an agent writes files, so Replay and auto-rerun never run it.';
  return null;
}
