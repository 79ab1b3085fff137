import { z } from 'zod';

/**
 * The memory profile (C14): two documents, `preferences` and `identity`, one fact per line. Each document keeps
 * every line it ever held, in order; a line that was replaced or deleted stays with `ended` set, so the profile
 * at any past time is a query, not a guess. Refusals are what the person took back: no model path re-admits them.
 */
export const MEMORY_PROFILE_FORMAT = 'weft.memory-profile';
export const MEMORY_PROFILE_VERSION = 1;

export const MEMORY_DOCUMENTS = ['preferences', 'identity'] as const;
export const MemoryDocumentNameSchema = z.enum(MEMORY_DOCUMENTS);
export type MemoryDocumentName = z.infer<typeof MemoryDocumentNameSchema>;

/**
 * Why a line is there: `stated` (the person's own words said it), `inferred` (the judge read it from their words),
 * `manual` (the person typed it on the memory page), `folded` (imported from an earlier store), `rewritten` (a
 * neighbour the merge reworded while writing another fact — never `stated`, since nobody stated the new words).
 */
export const LineEvidenceSchema = z.enum(['stated', 'inferred', 'manual', 'folded', 'rewritten']);
export type LineEvidence = z.infer<typeof LineEvidenceSchema>;

/** The exchange a line came from; null fields for a line the person typed or imported. */
export const LineOriginSchema = z.object({
  canvasId: z.string().min(1).nullable(),
  nodeId: z.string().min(1).nullable(),
  versionId: z.string().min(1).nullable(),
  /** The commit hash (C9) of the exchange that produced the fact. */
  commitHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  at: z.number().int().nonnegative(),
});
export type LineOrigin = z.infer<typeof LineOriginSchema>;

/**
 * How a line stopped being current: replaced by another line, deleted by the person, or left out of a profile the
 * person imported over it (kept as history, never silently lost).
 */
export const LineEndSchema = z.discriminatedUnion('reason', [
  z.object({ reason: z.literal('replaced'), at: z.number().int().nonnegative(), by: z.string().min(1) }),
  z.object({ reason: z.literal('deleted'), at: z.number().int().nonnegative() }),
  z.object({ reason: z.literal('imported-over'), at: z.number().int().nonnegative() }),
]);
export type LineEnd = z.infer<typeof LineEndSchema>;

export const ProfileLineSchema = z.object({
  id: z.string().min(1),
  /** One line: no line breaks. */
  text: z
    .string()
    .min(1)
    .max(500)
    .regex(/^[^\r\n]*$/),
  evidence: LineEvidenceSchema,
  /** The verbatim span of the person's words the fact rests on (null for manual, folded and rewritten lines). */
  span: z.string().min(1).max(2000).nullable(),
  origin: LineOriginSchema,
  /** When the line entered its document (the profile at time T holds lines created by T and not ended by T). */
  createdAt: z.number().int().nonnegative(),
  /** The lines this one replaced (empty for a fresh line). */
  supersedes: z.array(z.string().min(1)),
  ended: LineEndSchema.nullable(),
  /**
   * #29.4: when the fact became true, beside `createdAt` (when it was recorded). Absent: the time of the turn that
   * stated it (`origin.at`). Optional, so earlier profiles read unchanged (`lineValidity` derives it).
   */
  validFrom: z.number().int().nonnegative().optional(),
  /**
   * #29.4: when a later statement superseded it (never set by a deletion). Absent: derived from `ended` — the
   * replacing line's `validFrom` when ended as replaced, else open.
   */
  validTo: z.number().int().nonnegative().nullable().optional(),
});
export type ProfileLine = z.infer<typeof ProfileLineSchema>;

/**
 * Something the person took back. `deleted-line` and `undone-admission` carry the line's text; `topic` carries
 * words the person said never to store; `rejected-proposal` the text of a proposal rejected in the Inbox. Matching is done in core (`matchesRefusal`).
 */
export const RefusalSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['deleted-line', 'undone-admission', 'topic', 'rejected-proposal']),
  text: z.string().min(1).max(500),
  lineId: z.string().min(1).nullable(),
  at: z.number().int().nonnegative(),
});
export type Refusal = z.infer<typeof RefusalSchema>;

export const MemoryProfileSchema = z.object({
  format: z.literal(MEMORY_PROFILE_FORMAT),
  version: z.literal(MEMORY_PROFILE_VERSION),
  documents: z.object({ preferences: z.array(ProfileLineSchema), identity: z.array(ProfileLineSchema) }),
  refusals: z.array(RefusalSchema),
});
export type MemoryProfile = z.infer<typeof MemoryProfileSchema>;

/**
 * What the merge model returns for one admitted fact: operations against line ids, never a rewritten document.
 * `replace` names the current lines its text takes the place of (one for a refinement or contradiction; more
 * than one drops lines, which code refuses unless as many lines are written).
 */
export const MergeOperationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), text: z.string().min(1).max(500) }),
  z.object({
    op: z.literal('replace'),
    lineIds: z.array(z.string().min(1)).min(1).max(20),
    text: z.string().min(1).max(500),
  }),
  z.object({ op: z.literal('no-op') }),
]);
export type MergeOperation = z.infer<typeof MergeOperationSchema>;

export const MergeOperationsSchema = z.object({ operations: z.array(MergeOperationSchema).min(1).max(20) });
export type MergeOperations = z.infer<typeof MergeOperationsSchema>;

/** The event ops memory decisions append (C10): metadata only, never a fact's text. */
export const MEMORY_EVENT_OPS = [
  'memory-judged',
  'memory-written',
  'memory-undone',
  'memory-refused-by-person',
  'memory-refusal-lifted',
  'memory-edited',
  'memory-switched',
  'memory-imported',
  // The review gate (issue 29.1): a fact waiting in the Inbox, and the person's decision on it.
  'memory-proposed',
  'memory-accepted',
  'memory-rejected',
  'memory-exchange-unrecorded',
  // Put-asides (issue 29.2): a tombstone recorded on content, and one lifted by a restore.
  'memory-put-aside',
  'memory-restored',
] as const;
export const MemoryEventOpSchema = z.enum(MEMORY_EVENT_OPS);
export type MemoryEventOp = z.infer<typeof MemoryEventOpSchema>;

export type MemoryProfileReadCode = 'not-a-profile' | 'newer-version' | 'corrupt';
export type MemoryProfileReadResult =
  { ok: true; profile: MemoryProfile } | { ok: false; code: MemoryProfileReadCode; message: string };

/** Reads a stored or imported profile; never throws. A profile from a newer Weft is refused, not half-read. */
export function readMemoryProfile(json: unknown): MemoryProfileReadResult {
  if (typeof json !== 'object' || json === null || (json as { format?: unknown }).format !== MEMORY_PROFILE_FORMAT)
    return { ok: false, code: 'not-a-profile', message: 'This is not a Weft memory profile.' };
  const version = (json as { version?: unknown }).version;
  if (typeof version === 'number' && version > MEMORY_PROFILE_VERSION)
    return { ok: false, code: 'newer-version', message: `This profile was made by a newer Weft (version ${version}).` };
  const parsed = MemoryProfileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: 'corrupt', message: `The profile is damaged at ${issue?.path.join('.') ?? '?'}.` };
  }
  return { ok: true, profile: parsed.data };
}
