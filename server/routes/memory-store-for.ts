import { randomUUID } from 'node:crypto';
import { MemoryStore, memoryDirectory } from '../../runtime/memory/index.ts';
import type { ServerContext } from '../server-context.ts';

const stores = new WeakMap<ServerContext, MemoryStore>();

/**
 * The server's one memory store: its queue serialises every write to `memory/` in this process, so the memory
 * routes and the put-aside journal never write over each other's journal.
 */
export function memoryStoreFor(context: ServerContext): MemoryStore {
  let store = stores.get(context);
  if (!store) {
    store = new MemoryStore({
      directory: memoryDirectory(context.home),
      now: context.now,
      newId: () => randomUUID(),
      hash: context.hash,
    });
    stores.set(context, store);
  }
  return store;
}
