import type { CanvasDocument } from '../../protocol/index.ts';
import { canvasPutAsides, contentKey, type HashPort } from '../../src/core/index.ts';
import type { PutAsideChange, PutAsideStore } from './put-aside-store.ts';

/**
 * Records what a canvas save did to its turns in the put-aside store: each turn archived or deleted becomes a
 * tombstone on its content; a turn unarchived, or a deleted node brought back under its own id (an undo), lifts the
 * tombstone it left — only that node: the same words archived and unarchived elsewhere lift nothing. A new node with
 * words put aside restores nothing: re-asking the same words does not undo a put-aside.
 */
export async function recordCanvasPutAsides(
  store: PutAsideStore,
  canvasId: string,
  previous: CanvasDocument | null,
  next: CanvasDocument | null,
  at: number,
  hash?: HashPort,
): Promise<void> {
  const { putAside, returned } = canvasPutAsides(previous, next);
  const changes: PutAsideChange[] = [];
  for (const item of putAside) {
    changes.push({
      op: 'put-aside',
      key: contentKey(item.kind, item.text, hash),
      kind: item.kind,
      reason: item.reason,
      at,
      origin: { canvasId, nodeId: item.nodeId },
    });
  }
  // A new record brings nothing back (no node of it was deleted before), and nothing is to be lifted from an empty log.
  const mayRestore = previous !== null && store.keys().size > 0;
  for (const item of mayRestore ? returned : []) {
    const key = contentKey(item.kind, item.text, hash);
    const tombstone = store.tombstone(key);
    if (!tombstone) continue;
    const sameNode =
      tombstone.origin !== null &&
      'nodeId' in tombstone.origin &&
      tombstone.origin.canvasId === canvasId &&
      tombstone.origin.nodeId === item.nodeId;
    // Only the node that put the words aside lifts it: another canvas's copy unarchived leaves it in force.
    if (sameNode)
      changes.push({
        op: 'restored',
        key,
        kind: item.kind,
        reason: item.reason,
        at,
        origin: { canvasId, nodeId: item.nodeId },
      });
  }
  await store.append(changes);
}
