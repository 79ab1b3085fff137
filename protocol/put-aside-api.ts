import { z } from 'zod';

/** Where put-aside content came from (core's `PUT_ASIDE_KINDS`, kept in step by `put-aside.test.ts`). */
export const PutAsideKindSchema = z.enum(['canvas-turn', 'session-turn', 'imported-message', 'dossier-sentence']);

/**
 * One tombstone in force as the Memory page's "Put aside" section and `weft memory put-asides` list it (issue 29.2).
 * `id` is the revision of the log line that recorded it: short, stable, and what a restore names.
 */
export const PutAsideItemSchema = z.object({
  id: z.string().min(1),
  key: z.string().min(1),
  kind: PutAsideKindSchema,
  /** `archived`, `deleted` or `struck`. */
  reason: z.string(),
  at: z.number(),
  origin: z.union([
    z.object({ canvasId: z.string(), nodeId: z.string() }),
    z.object({ topicId: z.string(), sentenceId: z.string() }),
    z.null(),
  ]),
  /** The words put aside (cut to `PUT_ASIDE_EXCERPT_CHARS`) while a record still holds them; null once it does not. */
  excerpt: z.string().nullable(),
});
export type PutAsideItem = z.infer<typeof PutAsideItemSchema>;

export const PUT_ASIDE_EXCERPT_CHARS = 300;

/** `GET /api/memory/put-asides?cursor&limit`: newest first; `nextCursor` (an item id) null on the last page. */
export const PutAsideListResponseSchema = z.object({
  items: z.array(PutAsideItemSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int().nonnegative(),
});
export type PutAsideListResponse = z.infer<typeof PutAsideListResponseSchema>;
