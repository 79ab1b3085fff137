import express, { type Router } from 'express';
import type { ProviderTestResponse } from '../../protocol/index.ts';
import { mapProviderError, streamAnswer } from '../../runtime/models/index.ts';
import type { ServerContext } from '../server-context.ts';

/** Long enough for a cold local model to load, short enough that the person is not left waiting. */
const TEST_TIMEOUT_MS = 20_000;

/**
 * `POST /api/providers/:id/test`: "test connection" on a saved provider row. One short request ("Reply with OK.")
 * to the provider's first model, through the same provider code an ask uses, so a bad key, a wrong base URL or a
 * missing model shows up here with the code an ask would get. Nothing is stored or logged but the outcome.
 */
export function providerTestRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/providers/:id/test', async (request, response) => {
    const providerId = request.params.id;
    const started = performance.now();
    const answer = (fields: Omit<ProviderTestResponse, 'providerId' | 'latencyMs'>): void => {
      const body: ProviderTestResponse = {
        providerId,
        latencyMs: Math.round(performance.now() - started),
        ...fields,
      };
      response.json(body);
    };
    const providers = await context.registry.providers();
    if (!providers.some((provider) => provider.id === providerId)) {
      answer({
        ok: false,
        modelId: null,
        code: 'unknown-provider',
        message: `No saved provider "${providerId}".`,
      });
      return;
    }
    const { models } = await context.registry.listModels();
    const modelId = models.find((model) => model.provider === providerId)?.id ?? null;
    if (!modelId) {
      answer({
        ok: false,
        modelId: null,
        code: 'no-model',
        message: 'This provider offers no model yet: list its models (or add a key) and save first.',
      });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TEST_TIMEOUT_MS);
    // The person leaving the page ends the test too.
    response.on('close', () => controller.abort());
    try {
      const model = await context.registry.resolve(modelId);
      for await (const event of streamAnswer({
        model,
        messages: [{ role: 'user', content: 'Reply with OK.' }],
        abortSignal: controller.signal,
        secrets: context.secretValues(),
      })) {
        // The first word of an answer proves the key, the URL and the model; the rest is not needed.
        if (event.type === 'text-delta' || event.type === 'answer-finished') {
          answer({ ok: true, modelId });
          return;
        }
        if (event.type === 'answer-failed') {
          const timedOut = event.code === 'aborted' && !response.writableEnded;
          answer({
            ok: false,
            modelId,
            code: timedOut ? 'timeout' : event.code,
            message: timedOut ? `No answer within ${TEST_TIMEOUT_MS / 1000} s.` : event.message,
          });
          return;
        }
      }
      answer({ ok: false, modelId, code: 'provider-error', message: 'The provider ended without an answer.' });
    } catch (error) {
      const failure = mapProviderError(error, context.secretValues());
      answer({ ok: false, modelId, ...failure });
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  });
  return router;
}
