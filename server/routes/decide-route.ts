import { jsonBody } from '../read-body.ts';
import express, { type Router } from 'express';
import { DecideRequestSchema, type DecideResponse } from '../../protocol/index.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/** `POST /api/decide` (C13): probabilities from the configured judge only, or the rule fallback. */
export function decideRoute(context: ServerContext): Router {
  const router = express.Router();
  router.post('/decide', jsonBody(1024 * 1024), async (request, response) => {
    const body = validateBody(DecideRequestSchema, request.body);
    const options = [...new Set(body.options)];
    const answer: DecideResponse = await context.judge.decide({ ...body, options });
    context.logger.info('decide', {
      kind: body.kind,
      options: options.length,
      fallback: answer.fallback,
      model: answer.model,
    });
    response.json(answer);
  });
  return router;
}
