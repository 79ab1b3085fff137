import { z } from 'zod';
import { MemoryDocumentNameSchema, MemoryProfileSchema } from './memory-profile.ts';
import { KnownAsSchema } from './memory-reading.ts';

/**
 * The memory HTTP contract (C13–C14): `/api/memory…`. The profile is one revisioned record (ETag / If-Match /
 * 409 like canvas records); the judge runs on `POST /api/memory/judge` after an ordinary ask.
 */
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const EventMetaValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * Which exchange to judge, by ids only: the server reads the question, the notes and the answer from the stored
 * canvas itself (the version must exist with that commit hash), so a caller can never say which text is the
 * person's. Strict: a body that carries texts is refused rather than silently trusted or ignored. No visit id
 * either: the server counts a canvas's additions over its own clock (`AdditionsWindow`).
 */
export const MemoryJudgeRequestSchema = z
  .object({
    canvasId: z.string().min(1).max(100),
    nodeId: z.string().min(1).max(200),
    versionId: z.string().min(1).max(200),
    commitHash: Sha256,
  })
  .strict();
export type MemoryJudgeRequest = z.infer<typeof MemoryJudgeRequestSchema>;

/** A line of the judge's activity list: what it decided and why. Never a secret: credential refusals carry no text. */
export const MemoryActivitySchema = z.object({
  id: z.string().min(1),
  at: z.number().int().nonnegative(),
  /** `proposed`: admitted by the constitution and waiting in the Inbox for the person (issue 29.1). */
  kind: z.enum(['admitted', 'proposed', 'refused', 'judge-failed', 'undone']),
  /** `judge` or `rule`; null for an activity that is not a proposal. */
  path: z.enum(['judge', 'rule']).nullable(),
  /** The constitution's code for a refusal, the failure for `judge-failed`, the merge fallback for an admission. */
  reason: z.string().nullable(),
  category: z.enum(['preference', 'identity', 'project']).nullable(),
  text: z.string().nullable(),
  span: z.string().nullable(),
  canvasId: z.string().nullable(),
  nodeId: z.string().nullable(),
  commitHash: Sha256.nullable(),
  lineId: z.string().nullable(),
});
export type MemoryActivity = z.infer<typeof MemoryActivitySchema>;

export const MemoryEventDraftSchema = z.object({
  op: z.string().min(1),
  objectId: z.string(),
  meta: z.record(z.string(), EventMetaValue),
});

export const MemoryStateResponseSchema = z.object({
  profile: MemoryProfileSchema,
  revision: Sha256,
  activity: z.array(MemoryActivitySchema),
  /** Canvases whose requests carry no [Memory] block. */
  offCanvases: z.array(z.string()),
  /** The configured decision model, or null (then the rule path decides and nothing leaves the machine). */
  judgeModelId: z.string().nullable(),
  /**
   * #29: how each line of `profile` is known, by line id (current and earlier versions alike): derived on read from
   * its evidence (core `lineKnownAs`), so a reader of the API need not know the evidence codes' mapping.
   */
  knownAs: z.record(z.string(), KnownAsSchema),
});
export type MemoryStateResponse = z.infer<typeof MemoryStateResponseSchema>;

export const MemoryJudgeResponseSchema = z.object({
  path: z.enum(['judge', 'rule']),
  activity: z.array(MemoryActivitySchema),
  /** The exchange's memory events, to append to its canvas's log (metadata only). */
  events: z.array(MemoryEventDraftSchema),
  /** Present when lines were written: undo it within eight seconds with `POST /api/memory/undo/:id`. */
  undo: z.object({ id: z.string().min(1), lineIds: z.array(z.string()) }).nullable(),
  revision: Sha256,
});
export type MemoryJudgeResponse = z.infer<typeof MemoryJudgeResponseSchema>;

export const MemoryLineRequestSchema = z.object({ document: MemoryDocumentNameSchema, text: z.string().max(500) });
export type MemoryLineRequest = z.infer<typeof MemoryLineRequestSchema>;

export const MemoryEditRequestSchema = z.object({ text: z.string().max(500) });
export type MemoryEditRequest = z.infer<typeof MemoryEditRequestSchema>;

export const MemoryCanvasSwitchSchema = z.object({ enabled: z.boolean() });
export type MemoryCanvasSwitch = z.infer<typeof MemoryCanvasSwitchSchema>;

export const MemoryImportRequestSchema = z.object({ markdown: z.string().max(5_000_000) });
export type MemoryImportRequest = z.infer<typeof MemoryImportRequestSchema>;

/** Every write answers with the new revision and the events it recorded. */
export const MemoryWriteResponseSchema = z.object({
  revision: Sha256,
  events: z.array(MemoryEventDraftSchema),
  lineId: z.string().nullable(),
  /** An import's lines that failed the constitution and were not taken in (the page names them). */
  refused: z
    .array(z.object({ lineId: z.string(), text: z.string(), code: z.enum(['refused-by-person', 'no-own-words']) }))
    .optional(),
});
export type MemoryWriteResponse = z.infer<typeof MemoryWriteResponseSchema>;
