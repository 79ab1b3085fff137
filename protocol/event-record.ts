import { z } from 'zod';

/** Light metadata only: an event never carries text content (C10). */
export const EventMetaSchema = z.record(z.string(), z.union([z.string().max(512), z.number(), z.boolean(), z.null()]));

/**
 * One entry of the append-only, hash-chained event log (C10).
 * `prevHash` is the previous event's `hash` ('' for the first); `hash` covers every other field.
 */
export const EventRecordSchema = z.object({
  id: z.string().min(1),
  at: z.number().int().nonnegative(),
  op: z.string().min(1),
  objectId: z.string(),
  meta: EventMetaSchema,
  prevHash: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EventRecord = z.infer<typeof EventRecordSchema>;
export type EventMeta = z.infer<typeof EventMetaSchema>;
