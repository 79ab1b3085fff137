import { PUT_ASIDE_EXCERPT_CHARS, WeftError, type PutAsideItem } from '../../protocol/index.ts';
import { nodeContent } from '../../src/core/index.ts';
import type { CanvasStore, PutAsideEvent, PutAsideStore } from '../fs/index.ts';

/** The words of a put-aside line, cut short: its own excerpt, else the canvas node that still holds them. */
async function excerptOf(
  event: PutAsideEvent,
  nodeText: (canvasId: string, nodeId: string) => Promise<string | null>,
): Promise<string | null> {
  if (event.excerpt !== undefined) return event.excerpt;
  if (event.origin === null || !('nodeId' in event.origin)) return null;
  const text = await nodeText(event.origin.canvasId, event.origin.nodeId);
  return text === null ? null : text.slice(0, PUT_ASIDE_EXCERPT_CHARS);
}

/**
 * One page of the tombstones in force, newest first, as the Memory page's "Put aside" section and
 * `weft memory put-asides` list them (issue 29.2). The cursor is the id of the last item given, so a restore
 * between two pages shifts nothing. An archived node's words are read from its canvas; a deleted node's are gone
 * (excerpt null): the log never kept a copy of them.
 */
export async function putAsideItems(
  store: Pick<PutAsideStore, 'inForce'>,
  canvases: Pick<CanvasStore, 'read'>,
  query: { cursor: string | null; limit: number },
): Promise<{ items: PutAsideItem[]; nextCursor: string | null; total: number }> {
  const all = store.inForce();
  // Newest first, so the next page starts at the first tombstone older than the cursor's — found by its revision,
  // not its position, so a restore of the cursor's own item (or any other) between two pages shifts nothing.
  const cursor = query.cursor === null ? null : Number(query.cursor);
  const found = cursor === null ? 0 : all.findIndex((event) => event.rev < cursor);
  const start = found === -1 ? all.length : found;
  const page = all.slice(start, start + query.limit);
  const documents = new Map<string, Promise<Awaited<ReturnType<CanvasStore['read']>> | null>>();
  const nodeText = async (canvasId: string, nodeId: string) => {
    if (!documents.has(canvasId))
      documents.set(
        canvasId,
        canvases.read(canvasId).catch(() => null),
      );
    const node = (await documents.get(canvasId))?.document.nodes.find((each) => each.id === nodeId);
    return node ? (nodeContent(node)?.text ?? null) : null;
  };
  const items = await Promise.all(
    page.map(async (event) => ({
      id: String(event.rev),
      key: event.key,
      kind: event.kind,
      reason: event.reason,
      at: event.at,
      origin: event.origin,
      excerpt: await excerptOf(event, nodeText),
    })),
  );
  const more = start + query.limit < all.length;
  return { items, nextCursor: more ? (items.at(-1)?.id ?? null) : null, total: all.length };
}

/**
 * Lifts the tombstone listed under `id` (issue 29.2): its words may come back on every read path. Appends a
 * `restored` line to the put-aside log (the store journals it); an id not in force is `put-aside-unknown` (404).
 */
export async function restorePutAside(
  store: Pick<PutAsideStore, 'inForce' | 'append'>,
  id: string,
  at: number,
): Promise<PutAsideEvent> {
  const tombstone = store.inForce().find((event) => String(event.rev) === id);
  if (!tombstone)
    throw new WeftError('put-aside-unknown', 'Nothing is put aside under that id (it may be restored already).', 404);
  const [written] = await store.append([
    { op: 'restored', key: tombstone.key, kind: tombstone.kind, reason: 'restored', at, origin: tombstone.origin },
  ]);
  if (!written) throw new WeftError('put-aside-unknown', 'That put-aside was restored meanwhile.', 404);
  return written;
}
