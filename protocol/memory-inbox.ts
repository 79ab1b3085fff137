import { z } from 'zod';
import { LineOriginSchema, MemoryDocumentNameSchema } from './memory-profile.ts';

/**
 * The review gate (issue 29.1): a profile fact a model or the rule path proposes waits here until the person
 * accepts it (or turned "accept automatically" on in Settings). Stored server-side in `memory/inbox.json`.
 */
export const MemoryProposalSchema = z.object({
  /** Stable: decisions name a proposal by id, never by its place in the list. */
  id: z.string().min(1),
  /** When it was proposed. */
  at: z.number().int().nonnegative(),
  /** The proposed line. */
  text: z.string().min(1).max(500),
  document: MemoryDocumentNameSchema,
  category: z.enum(['preference', 'identity']),
  /** `stated` when the person said it outright; `inferred` when read between the lines. */
  evidence: z.enum(['stated', 'inferred']),
  /** The person's own words it rests on (verbatim from their question or notes). */
  span: z.string().min(1),
  /** The exchange (canvas, node, version, commit hash) the words come from: one click to the turn. */
  origin: LineOriginSchema,
  /** The current line it would refine or replace, when the proposer named one. */
  updates: z.string().min(1).nullable(),
  /** The rule that admitted it: the memory judge's decisions or the judge-less rule path. */
  path: z.enum(['judge', 'rule']),
});
export type MemoryProposal = z.infer<typeof MemoryProposalSchema>;

export const MEMORY_INBOX_FORMAT = 'weft.memory-inbox';

/** `memory/inbox.json`: the pending proposals, oldest first as stored. */
export const MemoryInboxSchema = z.object({
  format: z.literal(MEMORY_INBOX_FORMAT),
  pending: z.array(MemoryProposalSchema),
});
export type MemoryInbox = z.infer<typeof MemoryInboxSchema>;

/**
 * `GET /api/memory/inbox?cursor&limit`: one page, newest first; `nextCursor` (the id of the page's last proposal,
 * never a position) is null on the last page; `revision` is the SHA-256 of the stored inbox's bytes.
 */
export const MemoryInboxResponseSchema = z.object({
  proposals: z.array(MemoryProposalSchema),
  nextCursor: z.string().nullable(),
  /** Proposals pending in all. */
  total: z.number().int().nonnegative(),
  revision: z.string().regex(/^[0-9a-f]{64}$/),
  /** Whether profile facts are accepted without review (Settings). */
  autoAccept: z.boolean(),
});
export type MemoryInboxResponse = z.infer<typeof MemoryInboxResponseSchema>;

/** `POST /api/memory/inbox/:id/accept`: `text` present when the person edited the line before accepting it. */
export const MemoryAcceptRequestSchema = z.object({ text: z.string().max(500).optional() }).strict();
export type MemoryAcceptRequest = z.infer<typeof MemoryAcceptRequestSchema>;

/**
 * Settings: which kinds of memory write skip the Inbox. Profile facts wait for review unless switched on; a
 * dossier's new sentences are accepted unless `dossierSentences` is false (absent: on, each cites its turns).
 */
export const MemoryAutoAcceptSchema = z.object({ profileFacts: z.boolean(), dossierSentences: z.boolean().optional() });
export type MemoryAutoAccept = z.infer<typeof MemoryAutoAcceptSchema>;
