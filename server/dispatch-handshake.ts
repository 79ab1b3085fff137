import type { CanonicalRequest } from '../protocol/index.ts';
import { DispatchHandshake, hashCanonical, shortHash, type HashPort } from '../src/core/index.ts';
import { WeftError } from '../protocol/index.ts';
import type { openEventStream } from './sse.ts';

type EventStream = ReturnType<typeof openEventStream>;

/**
 * What a dispatch hands over and the hash its client computed of it: a model's canonical request (the model lane and ask
 * the canvas), or the text an agent runtime reads (with the turn's id, which its acceptance names).
 */
export type Dispatch =
  | { to: 'model'; request: CanonicalRequest; clientHash: string }
  | { to: 'runtime'; text: string; clientHash: string; turnId: string };

/** A dispatch whose hash matched: `accept` sends the commit (the server's hash) once, right before the hand-over. */
export interface AcceptedDispatch {
  /** The server's hash of what it hands over (equal to the client's). */
  readonly serverHash: string;
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
  return {
    serverHash,
    get accepted() {
      return handshake.isCommitted;
    },
    accept() {
      if (!handshake.commit())
        throw new WeftError('handshake-repeated', 'This dispatch was already accepted; it is committed once.', 500);
      if (dispatch.to === 'model') stream.send({ type: 'request-accepted', requestHash: serverHash });
      else stream.send({ type: 'agent-started', turnId: dispatch.turnId, receivedHash: serverHash });
    },
  };
}
