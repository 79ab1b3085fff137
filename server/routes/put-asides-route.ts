import express, { type Router } from 'express';
import { z } from 'zod';
import { WeftError, type PutAsideListResponse } from '../../protocol/index.ts';
import { putAsideItems, restorePutAside } from '../../runtime/memory/index.ts';
import type { ServerContext } from '../server-context.ts';

/** The largest page; the section asks for what its window shows, the CLI for `--limit`. */
export const MAX_PUT_ASIDE_PAGE = 1000;

const QuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PUT_ASIDE_PAGE).default(200),
});

/**
 * The put-aside page over HTTP (issue 29.2): `GET /memory/put-asides` lists the tombstones in force newest first;
 * `POST /memory/put-asides/:id/restore` lifts one (the store journals it in memory's hash-chained journal).
 */
export function putAsidesRoute(context: ServerContext): Router {
  const router = express.Router();

  router.get('/memory/put-asides', async (request, response) => {
    const parsed = QuerySchema.safeParse(request.query);
    if (!parsed.success)
      throw new WeftError('invalid-query', `The put-aside query is not valid: ${parsed.error.issues[0]?.message}`, 400);
    const body: PutAsideListResponse = await putAsideItems(context.putAsides, context.canvases, {
      cursor: parsed.data.cursor ?? null,
      limit: parsed.data.limit,
    });
    response.json(body);
  });

  router.post('/memory/put-asides/:id/restore', async (request, response) => {
    const restored = await restorePutAside(context.putAsides, String(request.params.id), context.now());
    // Metadata only: the kind and the log revision, never the words.
    context.logger.info('put-aside restored', { kind: restored.kind, rev: restored.rev });
    response.json({ id: String(request.params.id), restored: true });
  });

  return router;
}
