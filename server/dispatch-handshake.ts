import type { CanonicalRequest } from '../protocol/index.ts';
import {
  contextHash as requestContextHash,
  DispatchHandshake,
  hashCanonical,
  shortHash,
  type HashPort,
} from '../src/core/index.ts';
import { WeftError, type StreamEvent } from '../protocol/index.ts';
import type { openEventStream } from './sse.ts';

type EventStream = ReturnType<typeof openEventStream>;

/**
 * What a dispatch hands over and the hash its client computed of it: a model's canonical request (the model lane and ask
 * the canvas), or the text an agent runtime reads (with the turn's id, which its acceptance names).
 */
export type Dispatch =
  | { to: 'model'; request: CanonicalRequest; clientHash: string; clientContextHash?: string }
  | { to: 'runtime'; text: string; clientHash: string; turnId: string };

/** A dispatch whose hash matched: `accept` sends the commit (the server's hash) once, right before the hand-over. */
export interface AcceptedDispatch {
  /** The server's hash of what it hands over (equal to the client's). */
  readonly serverHash: string;
  /** Issue 31: the server's context hash (messages and tools alone) of a model's request; null for a runtime's. */
  readonly contextHash: string | null;
  /** True once `accept` has sent the commit. */
  readonly accepted: boolean;
  /** Sends `request-accepted` (to a model) or `agent-started` (to an agent runtime); a second call throws. */
  accept(): void;
}

/**
 * C9, the server's half of the handshake for all three lanes (`/api/generate`, `/api/ask-canvas`, `/api/agents/turn`):
 * hash what will be handed over, and refuse a client hash that differs — a coded `hash-mismatch` ends the stream
 * before any model or runtime is called, and null is returned. Otherwise the caller does its lane's checks and calls
 * `accept` once the model or runtime is about to receive the request.
 */
export function openDispatch(stream: EventStream, hash: HashPort, dispatch: Dispatch): AcceptedDispatch | null {
  const serverHash = dispatch.to === 'model' ? hashCanonical(dispatch.request, hash) : hash.sha256Hex(dispatch.text);
  const handshake = new DispatchHandshake(serverHash);
  if (!handshake.check(dispatch.clientHash).ok) {
    stream.send(
      dispatch.to === 'model'
        ? {
            type: 'answer-failed',
            code: 'hash-mismatch',
            message: `The request changed on its way: the client hashed ${shortHash(dispatch.clientHash)}, the server ${shortHash(serverHash)}. Nothing was sent to the model.`,
          }
        : {
            type: 'agent-failed',
            code: 'hash-mismatch',
            message: 'The prompt changed on its way; nothing was handed to the runtime.',
          },
    );
    stream.end();
    return null;
  }
  // Issue 31: the context hash is recomputed for every model dispatch (the ledger records it); one the client sent
  // (a model set's ask) must be the server's, or nothing is handed over.
  const contextHash = dispatch.to === 'model' ? requestContextHash(dispatch.request, hash) : null;
  if (
    dispatch.to === 'model' &&
    dispatch.clientContextHash !== undefined &&
    dispatch.clientContextHash !== contextHash
  ) {
    stream.send({
      type: 'answer-failed',
      code: 'context-hash-mismatch',
      message: `The context changed on its way: the client hashed it ${shortHash(dispatch.clientContextHash)}, the server ${shortHash(contextHash!)}. Nothing was sent to the model.`,
    });
    stream.end();
    return null;
  }
  const echoContext = dispatch.to === 'model' && dispatch.clientContextHash !== undefined;
  return acceptedDispatch(
    handshake,
    (serverHash) =>
      dispatch.to === 'model'
        ? stream.send({
            type: 'request-accepted',
            requestHash: serverHash,
            ...(echoContext ? { contextHash: contextHash! } : {}),
          })
        : stream.send({ type: 'agent-started', turnId: dispatch.turnId, receivedHash: serverHash }),
    contextHash,
  );
}

/**
 * A model dispatch whose handshake the caller already checked against the client's hash (each answer of a model
 * set, `set-handshake.ts`, all checked before any is dispatched): its acceptance sends `request-accepted` with both
 * hashes through `send`, once.
 */
export function checkedModelDispatch(
  handshake: DispatchHandshake,
  send: (event: StreamEvent) => void,
  contextHash: string,
): AcceptedDispatch {
  if (handshake.state !== 'accepted') throw new Error('a set dispatch is accepted only after its hash was checked');
  return acceptedDispatch(
    handshake,
    (serverHash) => send({ type: 'request-accepted', requestHash: serverHash, contextHash }),
    contextHash,
  );
}

function acceptedDispatch(
  handshake: DispatchHandshake,
  announce: (serverHash: string) => void,
  contextHash: string | null,
): AcceptedDispatch {
  const serverHash = handshake.expectedHash;
  return {
    serverHash,
    contextHash,
    get accepted() {
      return handshake.isCommitted;
    },
    accept() {
      if (!handshake.commit())
        throw new WeftError('handshake-repeated', 'This dispatch was already accepted; it is committed once.', 500);
      announce(serverHash);
    },
  };
}
