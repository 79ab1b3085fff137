import { randomUUID } from 'node:crypto';
import { putAsideEvent } from '../../src/core/memory/index.ts';
import { PutAsideStore, type PutAsideEvent } from '../fs/index.ts';
import { journalObjectId } from './journal-secret.ts';
import { MemoryStore, memoryDirectory, type StoredMemory } from './memory-store.ts';

/**
 * Every put-aside and restore written to the put-aside log becomes an event in memory's hash-chained journal
 * (issue 29.2): the content key keyed with the home's secret (`journalObjectId`), kind, reason and origin — never
 * the words. Given to `PutAsideStore` as `journal`, so every path that puts aside or restores (archiving, deleting,
 * striking, the Put aside page) is journaled by the one store, in the order written, before its line is.
 */
export async function journalPutAsides(
  store: MemoryStore,
  events: readonly PutAsideEvent[],
): Promise<StoredMemory | null> {
  if (events.length === 0) return null;
  const drafts = events.map((event) => putAsideEvent(event, journalObjectId(store.directory, event.key)));
  const { stored } = await store.update(null, () => ({ change: { events: drafts }, result: null }));
  return stored;
}

/**
 * The put-aside store of `home` for a process with no server in front of it (the CLI): every line it writes is
 * journaled in `memory/journal.json` through a memory store of its own, as the server's store journals them.
 */
export function journaledPutAsideStore(home: string): PutAsideStore {
  const journal = new MemoryStore({ directory: memoryDirectory(home), now: Date.now, newId: randomUUID });
  return new PutAsideStore(home, { journal: async (events) => void (await journalPutAsides(journal, events)) });
}
