import { z } from 'zod';

/**
 * C32: a plaque — one answer's takeaway ladder, for display only. It is stored on its version and never enters a
 * compiled context, a request or a fingerprint.
 */

/** Why a model's ladder was refused (then the rule fallback wrote the plaque). */
export const PlaqueRefusalSchema = z.enum([
  /** No JSON object with topic, takeaway, reason and sentences could be read. */
  'unreadable',
  /** The topic is not copied from inside the takeaway. */
  'topic-not-in-takeaway',
  /** A sentence number names no sentence of the answer. */
  'sentence-missing',
  /** A sentence was named twice. */
  'sentence-repeated',
  /** Not three or four sentences (or all of them, for a shorter answer). */
  'sentence-count',
  /** The takeaway or topic is longer than a plaque holds. */
  'too-long',
  /** The model asked did not answer (a timeout, a provider error, an unknown model). */
  'no-answer',
]);
export type PlaqueRefusal = z.infer<typeof PlaqueRefusalSchema>;

/**
 * #29: what kind of point a plaque's answer makes: a `finding` (states what is), a `recommendation` (advises what to
 * do), an `explanation` (says why or how), a `procedure` (steps), a `comparison` (weighs options).
 */
export const PlaqueSummaryTypeSchema = z.enum(['finding', 'recommendation', 'explanation', 'procedure', 'comparison']);
export type PlaqueSummaryType = z.infer<typeof PlaqueSummaryTypeSchema>;

/** #29: how sure the answer is: `settled` (said plainly), `tentative` (hedged), `open` (left as a question). */
export const PlaqueConclusivenessSchema = z.enum(['settled', 'tentative', 'open']);
export type PlaqueConclusiveness = z.infer<typeof PlaqueConclusivenessSchema>;

export const PLAQUE_TOPIC_MAX = 60;
export const PLAQUE_TAKEAWAY_MAX = 200;
export const PLAQUE_REASON_MAX = 400;

export const PlaqueSchema = z.object({
  topic: z.string().min(1).max(PLAQUE_TOPIC_MAX),
  takeaway: z.string().min(1).max(PLAQUE_TAKEAWAY_MAX),
  reason: z.string().max(PLAQUE_REASON_MAX),
  /** 1-based numbers of the answer's sentences (as `splitSentences` counts them) that form the abstract. */
  sentences: z.array(z.number().int().positive()).max(4),
  /** Those sentences' verbatim text, in answer order. */
  abstract: z.array(z.string().max(20_000)).max(4),
  /** Who wrote it: a model's validated ladder, the rule fallback, or the person's edit. */
  source: z.enum(['model', 'rule', 'person']),
  /** The model that wrote it (`source: 'model'`), else null. */
  model: z.string().nullable(),
  writtenAt: z.number().int().nonnegative(),
  /** Set when a model was asked and its ladder was refused, so the rule wrote this one. */
  refusal: PlaqueRefusalSchema.optional(),
  /** #29: display-only like the rest; absent on plaques from before it (then the rule derives them for display). */
  summaryType: PlaqueSummaryTypeSchema.optional(),
  conclusiveness: PlaqueConclusivenessSchema.optional(),
});
export type Plaque = z.infer<typeof PlaqueSchema>;

/** `POST /api/plaque`: write the plaque of one answer. */
export const PlaqueRequestSchema = z.object({
  question: z.string().max(200_000),
  answer: z.string().max(2_000_000),
  /** The model that answered; an agent's answer (`lane: 'agent'`) is summarised by the decision model instead. */
  model: z.string().min(1).max(300),
  lane: z.enum(['chat', 'agent']),
  /** The ancestors' own plaques, oldest first, already cut to the thread budget (`plaqueThread` in core). */
  thread: z.array(z.string().max(1000)).max(100),
});
export type PlaqueRequest = z.infer<typeof PlaqueRequestSchema>;

export const PlaqueResponseSchema = z.object({ plaque: PlaqueSchema });
export type PlaqueResponse = z.infer<typeof PlaqueResponseSchema>;
