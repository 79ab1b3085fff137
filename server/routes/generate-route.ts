import { jsonBody } from '../read-body.ts';
import express, { type Router } from 'express';
import type { HashPort } from '../../src/core/index.ts';
import { declaredChatTools, declaredMcpTools } from '../../src/core/index.ts';
import { GenerateRequestSchema, WeftError } from '../../protocol/index.ts';
import { mapProviderError, streamAnswer, toModelMessages } from '../../runtime/models/index.ts';
import { chatToolset, mcpToolset } from '../../runtime/tools/index.ts';
import { commitTarget } from '../commit-target.ts';
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

/** One append to the commit ledger; a failed one is logged and leaves the answer unrecorded (never evidence). */
async function intoLedger<T>(context: ServerContext, append: () => Promise<T>): Promise<T | null> {
  try {
    return await append();
  } catch (error) {
    context.logger.warn('commit ledger append failed', { code: (error as { code?: unknown }).code ?? null });
    return null;
  }
}

/**
 * `POST /api/generate` (C9): validate, hash what will be handed over, stream the answer. A request naming its
 * question node (`target`) is recorded in the server's commit ledger at the commit, and its answer's hash when the
 * answer streamed to the end: memory's only evidence that a version was asked and answered (issue 27.3).
 * A mismatch with the client's hash stops before any provider is called. `request-accepted` (the
 * server's own hash: the commit) comes only once the model is resolved, right before its call.
 * Closing the request aborts the provider call.
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
    const requestHash = dispatch.serverHash;
    // C35: only tools declared exactly as Weft declares them run; anything else is refused before any model call.
    const declared = declaredChatTools(body.request);
    if (!declared.ok) {
      stream.send({ type: 'answer-failed', code: declared.error.code, message: declared.error.message });
      stream.end();
      return;
    }
    // Issue 27.3: a request for a question node is checked against the stored canvas before it is committed (the
    // record is read while MCP servers bind).
    const checking = body.target ? commitTarget(context, body.target, body.request) : null;
    // MCP tools are bound to their live servers (started now if need be); a changed declaration is refused.
    const mcp = await context.mcp.bind(declaredMcpTools(body.request));
    if ('refusal' in mcp) {
      stream.send({
        type: 'answer-failed',
        code: mcp.refusal.code,
        message: mcp.refusal.message,
      });
      stream.end();
      return;
    }
    const target = checking ? await checking : null;
    if (target && !target.ok) {
      stream.send({ type: 'answer-failed', code: 'dispatch-target-mismatch', message: target.message });
      stream.end();
      return;
    }
    const toolset = {
      ...(declared.value.length > 0 ? chatToolset(declared.value, context.chatTools) : {}),
      ...mcpToolset(mcp.bindings, context.mcp),
    };
    const tools = Object.keys(toolset).length > 0 ? toolset : undefined;
    let toolCalls = 0;
    const startedAt = Date.now();
    let outcome = 'finished';
    try {
      // Acceptance is the commit (C9): it is sent only once a model is resolved and its call is about to start,
      // so an unknown model or a missing key fails without a commit.
      const model = await context.registry.resolve(body.request.model, { requestHash });
      dispatch.accept();
      const commit = target
        ? await intoLedger(context, () =>
            context.commits.commit({ requestHash, contextHash: dispatch.contextHash!, ...target.fields }),
          )
        : null;
      let answer = '';
      for await (const event of streamAnswer({
        model,
        messages,
        abortSignal: controller.signal,
        secrets: context.secretValues(),
        // Issue 31: a model set's temperature travels in the request, so its hash covers it.
        ...(body.request.temperature !== undefined ? { temperature: body.request.temperature } : {}),
        ...(tools ? { tools } : {}),
      })) {
        if (event.type === 'answer-failed') outcome = event.code;
        if (event.type === 'tool-call-finished') toolCalls += 1;
        if (event.type === 'text-delta') answer += event.delta;
        // Recorded before the client hears the end, so a judge it asks next finds the answer in the ledger.
        if (event.type === 'answer-finished' && commit !== null)
          await intoLedger(context, () => context.commits.answered(commit, context.hash.sha256Hex(answer)));
        stream.send(event);
      }
    } catch (error) {
      const failure = mapProviderError(error, context.secretValues());
      outcome = failure.code;
      stream.send({ type: 'answer-failed', ...failure });
    }
    context.logger.info('generate', {
      model: body.request.model,
      messages: body.request.messages.length,
      requestHash,
      tools: declared.value.length + mcp.bindings.length,
      toolCalls,
      outcome,
      ms: Date.now() - startedAt,
    });
    stream.end();
  });
  return router;
}
