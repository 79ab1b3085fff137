import express, { type Router } from 'express';
import {
  AskCanvasRequestSchema,
  type AskCanvasTurn,
  type CanvasChatResponse,
  type StreamEvent,
} from '../../protocol/index.ts';
import { mapProviderError, streamAnswer, toModelMessages } from '../../runtime/models/index.ts';
import { jsonBody } from '../read-body.ts';
import { openDispatch } from '../dispatch-handshake.ts';
import type { ServerContext } from '../server-context.ts';
import { abortOnClientClose, openEventStream } from '../sse.ts';
import { validateBody } from '../validate-body.ts';
import { GENERATE_BODY_LIMIT, imageBytes } from './generate-route.ts';

/**
 * Ask the canvas (C17): `GET /api/ask-canvas/:canvasId` (the stored chat), `DELETE` (empty it), and `POST`, which
 * streams one answer like `/api/generate` — the client's hash must equal the server's hash of what it hands the
 * model, `request-accepted` comes once the model is resolved — and appends the turn with that hash, the layers and
 * the answer as it ended (complete, failed or stopped) before it sends the ending event. Nothing is stored for a
 * request never sent.
 */
export function askCanvasRoute(context: ServerContext): Router {
  const router = express.Router();
  const chats = context.chats;

  router.get('/ask-canvas/:canvasId', async (request, response) => {
    const canvasId = String(request.params.canvasId);
    const body: CanvasChatResponse = { canvasId, turns: await chats.turns(canvasId) };
    response.json(body);
  });

  router.delete('/ask-canvas/:canvasId', async (request, response) => {
    const canvasId = String(request.params.canvasId);
    await chats.clear(canvasId);
    const body: CanvasChatResponse = { canvasId, turns: [] };
    response.json(body);
  });

  router.post('/ask-canvas/:canvasId', jsonBody(GENERATE_BODY_LIMIT), async (request, response) => {
    const canvasId = String(request.params.canvasId);
    // Checked before anything streams, so a bad id is a plain coded 400.
    await chats.turns(canvasId);
    const body = validateBody(AskCanvasRequestSchema, request.body);
    const images = imageBytes(body.images, context.hash);
    const messages = toModelMessages(body.request, images);
    const controller = abortOnClientClose(response);
    const stream = openEventStream(response);
    const dispatch = openDispatch(stream, context.hash, {
      to: 'model',
      request: body.request,
      clientHash: body.requestHash,
    });
    if (!dispatch) return;
    const requestHash = dispatch.serverHash;
    // The side chat offers the model no tools.
    if (body.request.toolDeclarations?.length || Object.values(body.request.tools).some(Boolean)) {
      stream.send({
        type: 'answer-failed',
        code: 'tool-refused',
        message: 'Ask the canvas offers the model no tools.',
      });
      stream.end();
      return;
    }
    let answer = '';
    let status: AskCanvasTurn['status'] = 'aborted';
    let code: string | null = null;
    // The ending event waits until the turn is stored, so a page that saw it reads the chat with the turn in it.
    let ending: StreamEvent | null = null;
    const startedAt = Date.now();
    try {
      const model = await context.registry.resolve(body.request.model, { requestHash });
      dispatch.accept();
      for await (const event of streamAnswer({
        model,
        messages,
        abortSignal: controller.signal,
        secrets: context.secretValues(),
      })) {
        if (event.type === 'answer-finished' || event.type === 'answer-failed') {
          ending = event;
          if (event.type === 'answer-finished') status = 'complete';
          else {
            status = event.code === 'aborted' ? 'aborted' : 'failed';
            code = event.code === 'aborted' ? null : event.code;
          }
          continue;
        }
        if (event.type === 'text-delta') answer += event.delta;
        stream.send(event);
      }
    } catch (error) {
      const failure = mapProviderError(error, context.secretValues());
      status = failure.code === 'aborted' ? 'aborted' : 'failed';
      code = failure.code === 'aborted' ? null : failure.code;
      ending = { type: 'answer-failed', ...failure };
    }
    if (dispatch.accepted) {
      const turn: AskCanvasTurn = {
        id: body.turnId,
        askedAt: startedAt,
        question: body.question,
        answer,
        status,
        code,
        model: body.request.model,
        requestHash,
        focusId: body.focusId,
        layers: body.layers,
      };
      try {
        await chats.append(canvasId, turn);
      } catch (error) {
        context.logger.info('ask-canvas store failed', { canvasId, code: (error as { code?: string }).code ?? null });
      }
    }
    if (ending) stream.send(ending);
    context.logger.info('ask-canvas', {
      canvasId,
      model: body.request.model,
      messages: body.request.messages.length,
      requestHash,
      outline: body.layers.outline.length,
      outcome: dispatch.accepted ? status : 'not-sent',
      ms: Date.now() - startedAt,
    });
    stream.end();
  });
  return router;
}
