import type { CanonicalRequest, GenerateSetRequest, StreamEvent } from '../protocol/index.ts';
import { DispatchHandshake, setRequestHashes, shortHash, type HashPort } from '../src/core/index.ts';
import { checkedModelDispatch, type AcceptedDispatch } from './dispatch-handshake.ts';

export type SetHandshake =
  | { ok: false; code: 'hash-mismatch' | 'context-hash-mismatch'; message: string }
  | {
      ok: true;
      /** The server's context hash: the client's, which every dispatch of the set shares. */
      contextHash: string;
      /** Each dispatch's whole request (the one context with its model and temperature), in the body's order. */
      requests: CanonicalRequest[];
      /** The dispatch at `index`, checked: its acceptance is sent through `send`. */
      dispatch(index: number, send: (event: StreamEvent) => void): AcceptedDispatch;
    };

/**
 * Issue 31, C9 for a model set's one call: the server hashes the set's context once and every dispatch's whole
 * request (`setRequestHashes`: the messages serialised once), and checks each against the client's hash. One
 * mismatch refuses the whole set, before any dispatch is accepted or any model called; otherwise each dispatch's
 * acceptance goes through the same `AcceptedDispatch` as `/api/generate`'s.
 */
export function openSetHandshake(body: GenerateSetRequest, hash: HashPort): SetHandshake {
  const { contextHash, requestHashes } = setRequestHashes(body.context, body.dispatches, hash);
  if (contextHash !== body.contextHash)
    return {
      ok: false,
      code: 'context-hash-mismatch',
      message: `The context changed on its way: the client hashed it ${shortHash(body.contextHash)}, the server ${shortHash(contextHash)}. Nothing was sent to any model.`,
    };
  const handshakes = requestHashes.map((serverHash) => new DispatchHandshake(serverHash));
  for (const [index, each] of body.dispatches.entries()) {
    if (handshakes[index]!.check(each.requestHash).ok) continue;
    return {
      ok: false,
      code: 'hash-mismatch',
      message: `The request of ${each.model} (sample ${each.sample}) changed on its way: the client hashed ${shortHash(each.requestHash)}, the server ${shortHash(requestHashes[index]!)}. Nothing was sent to any model.`,
    };
  }
  const requests = body.dispatches.map((each): CanonicalRequest => ({
    ...body.context,
    model: each.model,
    ...(each.temperature !== undefined ? { temperature: each.temperature } : {}),
  }));
  return {
    ok: true,
    contextHash,
    requests,
    dispatch: (index, send) => checkedModelDispatch(handshakes[index]!, send, contextHash),
  };
}
