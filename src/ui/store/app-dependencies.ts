import type { ApiClient } from '../api/api-client.ts';
import type { GenerateRequest } from '../../../protocol/http-api.ts';
import type { StreamEvent } from '../../../protocol/stream-events.ts';
import type { WeftDatabase } from '../db/weft-database.ts';

/** Everything the store reaches outside itself; tests pass real Dexie and a real or scripted API. */
export interface AppDependencies {
  api: ApiClient;
  database: WeftDatabase;
  generate: (body: GenerateRequest, signal: AbortSignal) => AsyncIterable<StreamEvent>;
  now: () => number;
  newId: () => string;
  /** Debounce delays; tests shorten them. */
  localDelayMs?: number;
  durableDelayMs?: number;
}

/** Short, sortable, collision-safe ids (time prefix + random tail). */
export function createIdGenerator(now: () => number, random: () => number = Math.random): () => string {
  let counter = 0;
  return () => {
    counter = (counter + 1) % 1296;
    const tail = Math.floor(random() * 36 ** 6)
      .toString(36)
      .padStart(6, '0');
    return `${now().toString(36)}${counter.toString(36).padStart(2, '0')}${tail}`;
  };
}
