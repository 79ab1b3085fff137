import { putAsideEvent } from '../../src/core/memory/index.ts';
import type { PutAsideEvent } from '../fs/index.ts';
import type { MemoryStore, StoredMemory } from './memory-store.ts';

/**
 * Every put-aside and restore written to the put-aside log becomes an event in memory's hash-chained journal
 * (issue 29.2): the content key, kind, reason and origin — never the words. Given to `PutAsideStore` as
 * `onWritten`, so every path that puts aside or restores (archiving, deleting, striking, the Put aside page) is
 * journaled by the one store, in the order written.
 */
export async function journalPutAsides(
  store: MemoryStore,
  events: readonly PutAsideEvent[],
): Promise<StoredMemory | null> {
  if (events.length === 0) return null;
  const { stored } = await store.update(null, () => ({ change: { events: events.map(putAsideEvent) }, result: null }));
  return stored;
}
