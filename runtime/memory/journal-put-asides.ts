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
  const { stored } = await store.update(null, (current) => {
    const ids = new Map<string, string>(); // By key: the id of the last put-aside journaled in this batch.
    const drafts = events.map((event) => {
      const id = journalObjectId(store.directory, event.key);
      if (event.op === 'put-aside') ids.set(event.key, id);
      return putAsideEvent(
        event,
        event.op === 'restored' ? (ids.get(event.key) ?? liftedId(current, event.key, id)) : id,
      );
    });
    return { change: { events: drafts }, result: null };
  });
  return stored;
}

/**
 * The id a restore of `key` names: that of the put-aside event it lifts. Put-asides journaled before the ids were
 * keyed with the home's secret name their content by the bare key; a restore of one names it the same way, so every
 * restore still pairs with its put-aside in the journal (the bare key is already in that older event: nothing new
 * is disclosed). Otherwise, and when no put-aside event is found, the keyed id.
 */
function liftedId(current: StoredMemory, key: string, keyed: string): string {
  const events = current.journal.events;
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    if (event.op === 'memory-put-aside' && (event.objectId === keyed || event.objectId === key)) return event.objectId;
  }
  return keyed;
}

/**
 * The put-aside store of `home` for a process with no server in front of it (the CLI): every line it writes is
 * journaled in `memory/journal.json` through a memory store of its own, as the server's store journals them.
 */
export function journaledPutAsideStore(home: string): PutAsideStore {
  const journal = new MemoryStore({ directory: memoryDirectory(home), now: Date.now, newId: randomUUID });
  return new PutAsideStore(home, { journal: async (events) => void (await journalPutAsides(journal, events)) });
}
