import express, { type Router } from 'express';
import { GenerateSetRequestSchema, type GenerateFailureCode, type SetStreamEvent } from '../../protocol/index.ts';
import { splitModelId, toModelMessages } from '../../runtime/models/index.ts';
import { answerDispatch, prepareDispatch } from '../answer-dispatch.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { openSetHandshake } from '../set-handshake.ts';
import { setRefusal } from '../set-refusal.ts';
import { abortOnClientClose, openEventStream } from '../sse.ts';
import { validateBody } from '../validate-body.ts';
import { GENERATE_BODY_LIMIT, imageBytes } from './generate-route.ts';

/**
 * How many answers of one set stream at once from one provider. Eight overlaps a provider's latency (a set is
 * 2–16 models × 1–8 samples, mostly one call per model per provider) and stays under the concurrent-request limits
 * hosted providers start from (OpenAI's and Anthropic's lowest tiers allow far more than 8 parallel streams, but a
 * local Ollama serves one or two at a time and queues the rest, so more buys nothing there). Each provider has
 * its own eight: a set across three providers runs up to 24.
 */
export const SET_PARALLEL_PER_PROVIDER = 8;

/** Runs `jobs` with at most `limit` at once per key. */
async function perKeyLimited<Job>(
  jobs: Job[],
  keyOf: (job: Job) => string,
  limit: number,
  run: (job: Job) => Promise<void>,
) {
  const queues = new Map<string, Job[]>();
  for (const job of jobs) queues.set(keyOf(job), [...(queues.get(keyOf(job)) ?? []), job]);
  const workers: Promise<void>[] = [];
  for (const queue of queues.values()) {
    // Counted before any starts: a worker takes its first job synchronously.
    const count = Math.min(limit, queue.length);
    for (let worker = 0; worker < count; worker += 1)
      workers.push(
        (async () => {
          for (let job = queue.shift(); job !== undefined; job = queue.shift()) await run(job);
        })(),
      );
  }
  await Promise.all(workers);
}

/**
 * `POST /api/generate-set` (issue 31): every answer of one ask of a model set in one call. The context travels
 * once; the server refuses the whole set (`index: null`) on an agent lane, the per-ask cap, any hash mismatch
 * (`set-handshake.ts`) or a refused tool or target — all before any dispatch is accepted. Then each answer goes
 * through `answerDispatch`, the same hand-over as `/api/generate` (accept, commit, stream, answer in the ledger),
 * and its events come tagged with its index. Closing the request aborts every call.
 */
export function generateSetRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/generate-set', jsonBody(GENERATE_BODY_LIMIT), async (request, response) => {
    const body = validateBody(GenerateSetRequestSchema, request.body);
    const images = imageBytes(body.images, context.hash);
    // One context: its messages are converted once for every answer (a malformed one is a 400, as on /api/generate).
    const messages = toModelMessages({ ...body.context, model: body.dispatches[0]!.model }, images);
    const controller = abortOnClientClose(response);
    const stream = openEventStream<SetStreamEvent>(response, 'turn');
    const refuseAll = (code: GenerateFailureCode, message: string) => {
      stream.send({ index: null, event: { type: 'answer-failed', code, message } });
      stream.end();
    };
    const refusal = await setRefusal(context, body);
    if (refusal) return refuseAll('model-set-refused', refusal);
    const handshake = openSetHandshake(body, context.hash);
    if (!handshake.ok) return refuseAll(handshake.code, handshake.message);
    // Its tools and target are checked once for every answer.
    const prepared = await prepareDispatch(context, handshake.requests[0]!, body.target);
    if (!prepared.ok) return refuseAll(prepared.code, prepared.message);
    const indexes = body.dispatches.map((_, index) => index);
    await perKeyLimited(
      indexes,
      (index) => splitModelId(body.dispatches[index]!.model)?.providerId ?? body.dispatches[index]!.model,
      SET_PARALLEL_PER_PROVIDER,
      async (index) => {
        if (controller.signal.aborted) return;
        const send = (event: SetStreamEvent['event']) => stream.send({ index, event });
        await answerDispatch(context, {
          dispatch: handshake.dispatch(index, send),
          request: handshake.requests[index]!,
          messages,
          prepared: prepared.value,
          signal: controller.signal,
          send,
        });
      },
    );
    stream.end();
  });
  return router;
}
