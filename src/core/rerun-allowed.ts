import type { CanvasNode } from '../../protocol/index.ts';
import { isLive } from './live.ts';

export type RerunVerdict =
  { ok: true } | { ok: false; code: 'archived' | 'not-runnable' | 'not-found'; reason: string };

/** Every manual or automatic rerun asks this first; archived nodes are refused with a reason. */
export function rerunAllowed(node: CanvasNode | undefined): RerunVerdict {
  if (!node) return { ok: false, code: 'not-found', reason: 'This node no longer exists.' };
  if (!isLive(node)) {
    return {
      ok: false,
      code: 'archived',
      reason: 'This node is archived, so it never runs. Unarchive it to run it again.',
    };
  }
  if (node.kind !== 'question') {
    return { ok: false, code: 'not-runnable', reason: `A ${node.kind} node has no question to run.` };
  }
  return { ok: true };
}
