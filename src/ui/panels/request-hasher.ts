import type { CanonicalRequest } from '../../../protocol/index.ts';
import { hashCanonicalNative } from './hash-canonical-native.ts';

type Reply = { id: number; hash: string } | { id: number; error: string };
type Pending = { request: CanonicalRequest; resolve(hash: string): void; reject(error: Error): void };

/** The hashing worker: undefined until first asked for, null where none can start (then the main thread hashes). */
let worker: Worker | null | undefined;
const pending = new Map<number, Pending>();
let lastId = 0;

/**
 * C9: the request hash of `request` (SHA-256 over its canonical JSON, the digest the dispatch records), computed in
 * a worker: the canonical text of a 2,000-message request and its digest then cost the main thread nothing but the
 * message's copy (they were ≈ 25 ms of a panel open there). The same digest as `hashCanonical`: `hashCanonicalNative`.
 */
export function hashRequest(request: CanonicalRequest): Promise<string> {
  let hashed = hashes.get(request);
  if (!hashed) {
    hashed = startHash(request);
    hashes.set(request, hashed);
    // Started early, before anyone awaits it: its failure is shown by `useRequestHash`, not reported as unhandled.
    hashed.catch(() => undefined);
  }
  return hashed;
}

/** One hash per request object, so the preview can start it early (while it renders) and show it later. */
const hashes = new WeakMap<CanonicalRequest, Promise<string>>();

function startHash(request: CanonicalRequest): Promise<string> {
  const hasher = startedWorker();
  if (!hasher) return hashCanonicalNative(request);
  lastId += 1;
  const id = lastId;
  return new Promise((resolve, reject) => {
    pending.set(id, { request, resolve, reject });
    hasher.postMessage({ id, request });
  });
}

function startedWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return (worker = null);
  try {
    worker = new Worker(new URL('./request-hash-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return (worker = null);
  }
  worker.onmessage = (event: MessageEvent<Reply>) => {
    const entry = pending.get(event.data.id);
    if (!entry) return;
    pending.delete(event.data.id);
    if ('hash' in event.data) entry.resolve(event.data.hash);
    else entry.reject(new Error(event.data.error));
  };
  // A worker that cannot load or dies: the main thread hashes what was waiting, and everything after.
  worker.onerror = () => {
    worker?.terminate();
    worker = null;
    const waiting = [...pending.values()];
    pending.clear();
    for (const entry of waiting) hashCanonicalNative(entry.request).then(entry.resolve, entry.reject);
  };
  return worker;
}
