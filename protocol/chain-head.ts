import { z } from 'zod';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');

/**
 * The chain head the record store keeps beside each canvas record (`canvases/<id>.head.json`), version 1:
 * how many events the record held at its last write and the hash of the last one. Dropping events from the
 * end of a record, which the chain itself cannot show, is visible against it (C10).
 */
export const CHAIN_HEAD_FORMAT = 'weft.chain-head';
export const CHAIN_HEAD_VERSION = 1;

export const ChainHeadSchema = z.object({
  format: z.literal(CHAIN_HEAD_FORMAT),
  version: z.literal(CHAIN_HEAD_VERSION),
  canvasId: z.string().min(1),
  eventCount: z.number().int().nonnegative(),
  /** '' when the record has no events yet. */
  lastEventHash: z.union([Sha256, z.literal('')]),
  /**
   * The first event that did not verify when the record was created (an imported file with a broken chain;
   * its `import` event says so), else null. Appended events always chain, so no later break is ever expected.
   */
  firstBadEvent: z.number().int().nonnegative().nullable(),
});
export type ChainHead = z.infer<typeof ChainHeadSchema>;

/** What checking a log against its chain head found; `index` is 0-based, people read `index + 1`. */
export const ChainVerdictSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('intact'), eventCount: z.number().int().nonnegative(), anchored: z.boolean() }),
  z.object({
    status: z.literal('bad-event'),
    eventCount: z.number().int().nonnegative(),
    index: z.number().int().nonnegative(),
    eventId: z.string().nullable(),
  }),
  z.object({
    status: z.literal('missing-at-end'),
    eventCount: z.number().int().nonnegative(),
    missing: z.number().int().positive(),
  }),
  /** The log verifies, but its head file disagrees with the anchors journal: removed or rewritten outside Weft. */
  z.object({ status: z.literal('head-mismatch'), eventCount: z.number().int().nonnegative(), detail: z.string() }),
]);
export type ChainVerdict = z.infer<typeof ChainVerdictSchema>;
