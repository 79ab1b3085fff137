import { z } from 'zod';
import { CompletenessSchema, KnownAsSchema, MemoryReadingSchema } from './memory-reading.ts';

/**
 * Recall into an ask (C16): the node's setting (in the canvas document), the plan the server answers with, and
 * the snapshot a version keeps of what recall brought.
 */

/** Token ceilings of the recall block; never more than two fifths of the model's context window either. */
export const RECALL_CEILING_TOKENS = { small: 4000, medium: 12000, large: 40000 } as const;
export const RecallCeilingSchema = z.enum(['small', 'medium', 'large']);
export type RecallCeiling = z.infer<typeof RecallCeilingSchema>;

/** How many in-scope candidates the decision model reads for relevance: light 40, deep 200, full all (confirmed). */
export const RecallReachSchema = z.enum(['light', 'deep', 'full']);
export type RecallReach = z.infer<typeof RecallReachSchema>;

/**
 * A question node's recall setting. Absent means off (the default). `global` widens the scope from the canvas's
 * project (its working directory) to every project the index holds, and the node says so. `struck` names items
 * (turn keys, `dossier:<topicId>`) the person struck: left out from the next run on.
 */
export const RecallSettingSchema = z.object({
  enabled: z.boolean(),
  global: z.boolean(),
  ceiling: RecallCeilingSchema,
  reach: RecallReachSchema,
  struck: z.array(z.string().min(1).max(1000)).max(500),
});
export type RecallSetting = z.infer<typeof RecallSettingSchema>;

export const DEFAULT_RECALL_SETTING: RecallSetting = {
  enabled: false,
  global: false,
  ceiling: 'small',
  reach: 'light',
  struck: [],
};

/** Why a candidate was left out of the block. */
export const RecallOmissionReasonSchema = z.enum([
  'budget',
  'duplicate',
  'out-of-scope',
  'archived-source',
  'struck',
  'put-aside',
  /** #29: a model's summary (a dossier), left out because the node's inferred switch is off. */
  'inferred',
  /** #29.4: a turn from after the node's "as of" date (or of no known time). */
  'after-as-of',
]);
export type RecallOmissionReason = z.infer<typeof RecallOmissionReasonSchema>;

/** Where an item came from: enough to list it on the node (runner, session, turn, date) and to strike it. */
export const RecallSourceSchema = z.object({
  /** The item's id: a stable turn key, a memory file's key, or `dossier:<topicId>`. */
  id: z.string(),
  kind: z.enum(['turn', 'memory', 'dossier']),
  /** `claude-code`, `codex`, `pi`, `canvas`, or null for a dossier. */
  runner: z.string().nullable(),
  sessionId: z.string().nullable(),
  sessionTitle: z.string(),
  turn: z.number().int().nullable(),
  at: z.number().nullable(),
  /** The dossier's topic name (dossiers only). */
  topic: z.string().nullable(),
  /** #29: how it is known; absent means `observed` (read as written), the case of every item before #29. */
  knownAs: KnownAsSchema.optional(),
  /** #29: where its source was cut short (a `reconstructed` turn); absent means complete. */
  completeness: CompletenessSchema.optional(),
});
export type RecallSource = z.infer<typeof RecallSourceSchema>;

export const RecallItemSchema = RecallSourceSchema.extend({
  /** The label the block gives it (`R1`, `D1`), which the model is asked to name. */
  label: z.string(),
  matchedTerms: z.array(z.string()),
  tokens: z.number().int().nonnegative(),
  redactions: z.number().int().nonnegative(),
});
export type RecallItem = z.infer<typeof RecallItemSchema>;

export const RecallOmissionSchema = RecallSourceSchema.extend({ reason: RecallOmissionReasonSchema });
export type RecallOmission = z.infer<typeof RecallOmissionSchema>;

export const RecallPlanRequestSchema = z.strictObject({
  question: z.string().max(200_000),
  /** The active canvas: its own turns never come back, and its working directory is the scope. */
  canvasId: z.string().min(1).max(200),
  /** The node asked: its own labelled versions name topics too. */
  nodeId: z.string().min(1).max(200).optional(),
  /** The canvas's working directory as the app has it now (the project recall is scoped to); null for none. */
  workingDirectory: z.string().max(4096).nullable(),
  setting: RecallSettingSchema,
  /** The answering model's context window (tokens): the block stays within two fifths of it. */
  contextWindow: z.number().int().positive(),
  /** Required for a full reach: the person confirmed its count, time and price. */
  confirmFull: z.boolean().optional(),
  /** #29: the node's memory reading (inferred dossiers only behind its switch; `asOf`: each topic's dossier as it stood then); absent means the defaults. */
  memoryReading: MemoryReadingSchema.optional(),
});
export type RecallPlanRequest = z.infer<typeof RecallPlanRequestSchema>;

/** What the judge would read at the reach asked for, shown before a full reach runs. */
export const RecallReachEstimateSchema = z.object({
  reach: RecallReachSchema,
  /** Candidates the judge reads (0 without a judge). */
  candidates: z.number().int().nonnegative(),
  requests: z.number().int().nonnegative(),
  seconds: z.number().nonnegative(),
  /** Dollars; null when no judge is set or its price is unknown. */
  price: z.number().nullable(),
  judgeModelId: z.string().nullable(),
});
export type RecallReachEstimate = z.infer<typeof RecallReachEstimateSchema>;

export const RecallPlanResponseSchema = z.object({
  terms: z.array(z.string()),
  /** The block exactly as the request carries it, or null when nothing was recalled. */
  block: z.string().nullable(),
  /** SHA-256 of the block's text (null without a block). */
  blockHash: z.string().nullable(),
  items: z.array(RecallItemSchema),
  omitted: z.array(RecallOmissionSchema),
  ceilingTokens: z.number().int(),
  usedTokens: z.number().int(),
  /** The canvas's working directory the scope was drawn from, or null when global (or the canvas has none). */
  scope: z.string().nullable(),
  reach: RecallReachEstimateSchema,
});
export type RecallPlanResponse = z.infer<typeof RecallPlanResponseSchema>;

/** What a version keeps of the recall its request carried: the items (sources, not text) and the block's hash. */
export const RecallSnapshotSchema = z.object({
  blockHash: z.string(),
  terms: z.array(z.string()),
  items: z.array(RecallItemSchema),
});
export type RecallSnapshot = z.infer<typeof RecallSnapshotSchema>;
