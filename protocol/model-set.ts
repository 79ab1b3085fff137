import { z } from 'zod';

const Id = z.string().min(1).max(200);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');

/** Issue 31: how many models a set may hold and how many samples each may give (a set is priced before it runs). */
export const MODEL_SET_MODELS_MAX = 16;
export const MODEL_SET_SAMPLES_MAX = 8;

/**
 * Issue 31: a model set on a question node ("Ask several…"): two or more models (the agent lane is not a model),
 * samples per model, and the one temperature every request of the set carries (and its request hash covers).
 * Optional on the node, so no format bump.
 */
export const ModelSetSchema = z.object({
  models: z.array(z.string().min(1).max(200)).min(2).max(MODEL_SET_MODELS_MAX),
  samples: z.number().int().min(1).max(MODEL_SET_SAMPLES_MAX),
  temperature: z.number().min(0).max(2),
});
export type ModelSet = z.infer<typeof ModelSetSchema>;

/**
 * Issue 31, part 2: what one answer of a set cost, as the Compare view shows it: wall time from send to its last
 * token, the tokens the provider reported (null when it reported none) and the price at the ask's prices (null when
 * a price or a count is unknown). Display only: never in a request, a hash or a fingerprint.
 */
export const SetAnswerUsageSchema = z.object({
  latencyMs: z.number().nonnegative(),
  inputTokens: z.number().int().nonnegative().nullable(),
  outputTokens: z.number().int().nonnegative().nullable(),
  costUsd: z.number().nonnegative().nullable(),
});
export type SetAnswerUsage = z.infer<typeof SetAnswerUsageSchema>;

/**
 * Issue 31: what a version written by one ask of a set records about it: the ask's id (shared by every answer of
 * that ask), the model and sample (1-based) it answers for, the settings it was asked with, and the context hash
 * (messages + tools alone) every answer of the ask shares.
 */
export const SetAnswerSchema = z.object({
  setId: Id,
  model: z.string().min(1).max(200),
  sample: z.number().int().min(1).max(MODEL_SET_SAMPLES_MAX),
  temperature: z.number().min(0).max(2),
  contextHash: Sha256,
  /** Optional: answers recorded before part 2 carry none. */
  usage: SetAnswerUsageSchema.optional(),
});
export type SetAnswer = z.infer<typeof SetAnswerSchema>;
