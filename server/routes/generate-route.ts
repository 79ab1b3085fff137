import { jsonBody } from '../read-body.ts';
import express, { type Router } from 'express';
import type { HashPort } from '../../src/core/index.ts';
import { GenerateRequestSchema, WeftError } from '../../protocol/index.ts';
import { toModelMessages } from '../../runtime/models/index.ts';
import { answerDispatch, prepareDispatch } from '../answer-dispatch.ts';
import { openDispatch } from '../dispatch-handshake.ts';
import type { ServerContext } from '../server-context.ts';
import { abortOnClientClose, openEventStream } from '../sse.ts';
import { validateBody } from '../validate-body.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
export const GENERATE_BODY_LIMIT = 32 * 1024 * 1024;

export function imageBytes(images: { hash: string; dataBase64: string }[], hash: HashPort): Map<string, Uint8Array> {
  const byHash = new Map<string, Uint8Array>();
  for (const image of images) {
    if (image.dataBase64.length % 4 !== 0 || !BASE64.test(image.dataBase64)) {
      throw new WeftError('invalid-body', `Image ${image.hash.slice(0, 12)}… is not valid base64.`, 400);
    }
    const bytes = new Uint8Array(Buffer.from(image.dataBase64, 'base64'));
    if (hash.sha256Hex(bytes) !== image.hash) {
      throw new WeftError('image-mismatch', `Image ${image.hash.slice(0, 12)}…: its bytes do not match its hash.`, 400);
    }
    byHash.set(image.hash, bytes);
  }
  return byHash;
}

/**
 * `POST /api/generate` (C9): validate, hash what will be handed over, stream the answer. A request naming its
 * question node (`target`) is recorded in the server's commit ledger at the commit, and its answer's hash when the
 * answer streamed to the end: memory's only evidence that a version was asked and answered (issue 27.3).
 * A mismatch with the client's hash stops before any provider is called; the checks and the hand-over are
 * `answer-dispatch.ts`'s, shared with each answer of `/api/generate-set`. Closing the request aborts the provider call.
 */
export function generateRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/generate', jsonBody(GENERATE_BODY_LIMIT), async (request, response) => {
    const body = validateBody(GenerateRequestSchema, request.body);
    const images = imageBytes(body.images, context.hash);
    const messages = toModelMessages(body.request, images);

    const controller = abortOnClientClose(response);
    const stream = openEventStream(response);
    const dispatch = openDispatch(stream, context.hash, {
      to: 'model',
      request: body.request,
      clientHash: body.requestHash,
      ...(body.contextHash !== undefined ? { clientContextHash: body.contextHash } : {}),
    });
    if (!dispatch) return;
    const prepared = await prepareDispatch(context, body.request, body.target);
    if (!prepared.ok) {
      stream.send({ type: 'answer-failed', code: prepared.code, message: prepared.message });
      stream.end();
      return;
    }
    await answerDispatch(context, {
      dispatch,
      request: body.request,
      messages,
      prepared: prepared.value,
      signal: controller.signal,
      send: stream.send,
    });
    stream.end();
  });
  return router;
}
