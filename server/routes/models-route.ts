import express, { type Router } from 'express';
import type { ModelsResponse } from '../../protocol/index.ts';
import type { ServerContext } from '../server-context.ts';

/** `GET /api/models`: usable models with context window, images and prices; the receipt model always. */
export function modelsRoute(context: ServerContext): Router {
  const router = express.Router();
  router.get('/models', async (_request, response) => {
    const body: ModelsResponse = await context.registry.listModels();
    response.json(body);
  });
  return router;
}
