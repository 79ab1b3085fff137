import { z } from 'zod';

/** A topic the person owns (C15). Its id is stable for life: labels name ids, never positions or names. */
export const TopicSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(80),
  createdAt: z.number().int(),
});
export type Topic = z.infer<typeof TopicSchema>;

/**
 * Which topics one turn is about. `turnKey` is the stable key (`<runner>:<session>#<turn>` from the why index,
 * `canvas:<canvas>#<node>@<version>` for a live canvas turn); `contentHash` covers what was judged (the turn's
 * opening and the topic set), so a label is reused exactly while both are unchanged.
 */
export const TopicLabelSchema = z.object({
  turnKey: z.string().min(1).max(1000),
  contentHash: z.string().min(1).max(128),
  topicIds: z.array(z.string()),
  by: z.enum(['judge', 'name']),
  at: z.number().int(),
  /** SHA-256 of the turn's opening alone: a person's removal holds while it is unchanged (older labels lack it). */
  openingHash: z.string().min(1).max(128).optional(),
});
export type TopicLabel = z.infer<typeof TopicLabelSchema>;

/**
 * The person removed `topicId` from a turn: no labelling run gives it back while the turn's opening is the one
 * removed (`openingHash`; null when the label predates opening hashes: then while the key exists).
 */
export const LabelRemovalSchema = z.object({
  turnKey: z.string().min(1).max(1000),
  topicId: z.string().min(1).max(100),
  openingHash: z.string().min(1).max(128).nullable(),
  at: z.number().int(),
});
export type LabelRemoval = z.infer<typeof LabelRemovalSchema>;

export const TopicRecordSchema = z.object({
  format: z.literal('weft.topics'),
  topics: z.array(TopicSchema),
  labels: z.array(TopicLabelSchema),
  /** Labels the person removed (C15): their decision wins over the next labelling run. */
  removed: z.array(LabelRemovalSchema).optional(),
});
export type TopicRecord = z.infer<typeof TopicRecordSchema>;

export const TopicNameRequestSchema = z.strictObject({ name: z.string().max(1000) });
/** Starting a labelling run names the plan the person saw; a run that would differ is refused (409 `label-plan-changed`). */
export const LabelStartRequestSchema = z.strictObject({
  judgeModelId: z.string().nullable(),
  toLabel: z.number().int().min(0),
  requests: z.number().int().min(0),
});
export type LabelStartRequest = z.infer<typeof LabelStartRequestSchema>;

export const TopicMergeRequestSchema = z.strictObject({ into: z.string().min(1).max(100) });

/** One turn as the labelling job sees it: only `opening` would ever leave the machine. */
export const LabelTurnSchema = z.object({
  turnKey: z.string(),
  source: z.enum(['session', 'canvas']),
  title: z.string(),
  opening: z.string(),
});
export type LabelTurn = z.infer<typeof LabelTurnSchema>;

/** What a labelling run would do, shown before it starts. */
export const LabelPlanSchema = z.object({
  turns: z.number().int(),
  reused: z.number().int(),
  toLabel: z.number().int(),
  requests: z.number().int(),
  inputTokens: z.number().int(),
  /** Input price in dollars; null when no judge is set or its price is unknown. */
  price: z.number().nullable(),
  judgeModelId: z.string().nullable(),
  openingChars: z.number().int(),
  /** Exactly what leaves the machine: each turn's opening, one request each. Empty without a judge. */
  outgoing: z.array(z.object({ turnKey: z.string(), opening: z.string() })),
});
export type LabelPlan = z.infer<typeof LabelPlanSchema>;

export const LabelJobSchema = z.object({
  state: z.enum(['idle', 'running', 'stopped', 'done', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  reused: z.number().int(),
  byJudge: z.number().int(),
  byName: z.number().int(),
  message: z.string().nullable(),
});
export type LabelJob = z.infer<typeof LabelJobSchema>;

export const TopicsStateSchema = z.object({
  record: TopicRecordSchema,
  revision: z.string(),
  job: LabelJobSchema,
});
export type TopicsState = z.infer<typeof TopicsStateSchema>;

/** One labelled turn of a topic as the memory page lists it; `found` false when the turn is archived or gone. */
export const LabelledTurnSchema = z.object({
  turnKey: z.string(),
  source: z.enum(['session', 'canvas']),
  /** The agent runner (`claude-code`, `codex`, `pi`) or `canvas`. */
  runner: z.string(),
  /** The session's or canvas's name; null when the turn is not found. */
  title: z.string().nullable(),
  at: z.number().nullable(),
  /** The question's first line (credential-like strings redacted). */
  opening: z.string(),
  by: z.enum(['judge', 'name']),
  found: z.boolean(),
});
export type LabelledTurn = z.infer<typeof LabelledTurnSchema>;

export const TopicLabelsSchema = z.object({ topic: TopicSchema, turns: z.array(LabelledTurnSchema) });
export type TopicLabels = z.infer<typeof TopicLabelsSchema>;
