import express, { type Router } from 'express';
import {
  OFFLINE_RECEIPT_MODEL_ID,
  PlaqueRequestSchema,
  type PlaqueRequest,
  type PlaqueResponse,
  WeftError,
} from '../../protocol/index.ts';
import { writePlaque, type PlaqueModel } from '../../runtime/models/index.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/**
 * Who writes a plaque (C32), once the person chose models in Settings (`plaqueWriter: 'model'`): the model that answered; for an agent's answer, or an answer of the offline receipt
 * (which cannot summarise), the configured decision model (C13) as the background model; else nobody — the rule.
 */
async function plaqueModelFor(context: ServerContext, body: PlaqueRequest): Promise<PlaqueModel | null> {
  const settings = await context.settings.read();
  if ((settings.plaqueWriter ?? 'rule') === 'rule') return null;
  const answering = body.lane === 'chat' && body.model !== OFFLINE_RECEIPT_MODEL_ID ? body.model : null;
  const id = answering ?? settings.judgeModelId;
  if (!id || id === OFFLINE_RECEIPT_MODEL_ID) return null;
  return { id, model: await context.registry.resolve(id) };
}

/** `POST /api/plaque`: one answer's display-only plaque, from a model's validated ladder or the rule fallback. */
export function plaqueRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/plaque', jsonBody(4 * 1024 * 1024), async (request, response) => {
    const body = validateBody(PlaqueRequestSchema, request.body);
    let model: PlaqueModel | null = null;
    let unresolved = false;
    try {
      model = await plaqueModelFor(context, body);
    } catch {
      // A model that cannot be resolved (removed provider, missing key) leaves the plaque to the rule.
      unresolved = true;
    }
    const outcome = await writePlaque(body, { model, now: Date.now });
    if (!outcome.plaque)
      throw new WeftError('nothing-to-summarise', 'Neither the question nor the answer has words for a plaque.', 422);
    const plaque =
      unresolved && !outcome.plaque.refusal ? { ...outcome.plaque, refusal: 'no-answer' as const } : outcome.plaque;
    // Metadata only: never the answer's or the plaque's words.
    context.logger.info('plaque', {
      lane: body.lane,
      source: plaque.source,
      model: model?.id ?? null,
      refusal: plaque.refusal ?? null,
    });
    const answer: PlaqueResponse = { plaque };
    response.json(answer);
  });
  return router;
}
