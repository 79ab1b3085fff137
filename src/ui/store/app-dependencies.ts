import type { ApiClient } from '../api/index.ts';
import type { GenerateRequest, GenerateSetRequest, SetStreamEvent, StreamEvent } from '../../../protocol/index.ts';
import type { WeftDatabase } from '../db/index.ts';
import type { MemoryClient } from './memory-client.ts';
import type { PageLocks } from './page-locks.ts';
import type { RecallClient } from './recall-client.ts';

/** Everything the store reaches outside itself; tests pass real Dexie and a real or scripted API. */
export interface AppDependencies {
  api: ApiClient;
  database: WeftDatabase;
  generate: (body: GenerateRequest, signal: AbortSignal) => AsyncIterable<StreamEvent>;
  /** Issue 31: a model set's answers in one call (`/api/generate-set`), each event tagged with its dispatch. */
  generateSet: (body: GenerateSetRequest, signal: AbortSignal) => AsyncIterable<SetStreamEvent>;
  now: () => number;
  newId: () => string;
  /** The profile (C14): the [Memory] block each ordinary dispatch carries and the judge after an ask. */
  memory?: MemoryClient;
  /** C16: recall into an ask for nodes that switched it on (the app passes one; store tests opt in). */
  recall?: RecallClient;
  /** C32: write each new answer's plaque after it lands (the app does; store tests opt in). */
  plaques?: boolean;
  /** Which pages are open, so only a gone page's pending steps are taken over (the app passes Web Locks). */
  pageLocks?: PageLocks | null;
  /** Debounce delays; tests shorten them. */
  localDelayMs?: number;
  durableDelayMs?: number;
}

/**
 * Sortable, collision-safe ids: a time prefix and a counter keep the creation order of ids made in the same
 * millisecond (core orders ties by id), and 48 random bits from `crypto.randomUUID` keep two windows apart.
 * `randomUuid` is injected only so tests can see what the tail comes from.
 */
export function createIdGenerator(
  now: () => number,
  randomUuid: () => string = () => globalThis.crypto.randomUUID(),
): () => string {
  let counter = 0;
  return () => {
    counter = (counter + 1) % 1296;
    // The last group of a version-4 UUID is 12 hex digits, all random.
    const tail = randomUuid().slice(-12);
    return `${now().toString(36)}${counter.toString(36).padStart(2, '0')}${tail}`;
  };
}
