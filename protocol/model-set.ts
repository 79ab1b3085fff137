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
});
export type SetAnswer = z.infer<typeof SetAnswerSchema>;
