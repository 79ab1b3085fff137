import express, { type Router } from 'express';
import { z } from 'zod';
import { MemoryJournalVerdictSchema, WeftError } from '../../protocol/index.ts';
import { MemoryJournals } from '../../runtime/memory/index.ts';
import type { ServerContext } from '../server-context.ts';

/** The largest page; the page asks for what its list shows, the CLI for `--limit`. */
export const MAX_JOURNAL_PAGE = 500;

const QuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d+\.(profile|topics)\.\d+$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(MAX_JOURNAL_PAGE).default(100),
  verdict: MemoryJournalVerdictSchema.optional(),
  op: z
    .string()
    .regex(/^[a-z-]{1,60}$/)
    .optional(),
});

/**
 * Memory's journals over HTTP (issue 27.4): `GET /memory/journal` pages through the profile's and the topics'
 * hash-chained journals newest first (cursor, limit, verdict, op); `GET /memory/journal/verify` checks each chain
 * against the head kept beside it and says so in the sentence `weft verify` uses for a canvas.
 */
export function memoryJournalRoute(context: ServerContext): Router {
  const router = express.Router();
  const journals = new MemoryJournals(context.home);

  router.get('/memory/journal', async (request, response) => {
    const parsed = QuerySchema.safeParse(request.query);
    if (!parsed.success)
      throw new WeftError('invalid-query', `The journal query is not valid: ${parsed.error.issues[0]?.message}`, 400);
    const { cursor, limit, verdict, op } = parsed.data;
    response.json(await journals.page({ cursor: cursor ?? null, limit, verdict: verdict ?? null, op: op ?? null }));
  });

  router.get('/memory/journal/verify', async (_request, response) => {
    response.json(await journals.verify());
  });

  return router;
}
