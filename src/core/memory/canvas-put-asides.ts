import type { CanvasDocument } from '../../../protocol/index.ts';
import { isLive } from '../live.ts';
import { nodeContent, type PutAsideKind } from './put-aside.ts';

/** One node whose content a save put aside or brought back. */
export interface CanvasPutAside {
  nodeId: string;
  kind: PutAsideKind;
  text: string;
  /** `archived` or `deleted` for a put-aside; `unarchived` or `reappeared` (an undone deletion) for a return. */
  reason: 'archived' | 'deleted' | 'unarchived' | 'reappeared';
}

/**
 * What a save of a canvas record did to its turns' content (C15, issue 29.2): a live turn archived or gone is put
 * aside; an archived one made live again is restored. A turn that is live now and was absent before is reported as
 * `reappeared`: only the store knows whether it is a deleted node brought back (its tombstone names the node) or a new
 * node, which restores nothing. `next` null: the whole canvas was deleted.
 */
export function canvasPutAsides(
  previous: CanvasDocument | null,
  next: CanvasDocument | null,
): { putAside: CanvasPutAside[]; returned: CanvasPutAside[] } {
  const before = new Map((previous?.nodes ?? []).map((node) => [node.id, node]));
  const after = new Map((next?.nodes ?? []).map((node) => [node.id, node]));
  const putAside: CanvasPutAside[] = [];
  const returned: CanvasPutAside[] = [];
  for (const [id, node] of before) {
    if (!isLive(node)) continue;
    const now = after.get(id);
    if (isLive(now)) continue;
    const content = nodeContent(node);
    if (content) putAside.push({ nodeId: id, ...content, reason: now ? 'archived' : 'deleted' });
  }
  for (const [id, node] of after) {
    if (!isLive(node)) continue;
    const then = before.get(id);
    if (isLive(then)) continue;
    const content = nodeContent(node);
    if (content) returned.push({ nodeId: id, ...content, reason: then ? 'unarchived' : 'reappeared' });
  }
  return { putAside, returned };
}
