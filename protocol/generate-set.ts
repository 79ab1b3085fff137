import { z } from 'zod';
import { ToolDeclarationSchema } from './chat-tools.ts';
import { RequestMessageSchema } from './dispatch-request.ts';
import { GenerateImageSchema } from './http-api.ts';
import { MODEL_SET_MODELS_MAX, MODEL_SET_SAMPLES_MAX } from './model-set.ts';
import { StreamEventSchema } from './stream-events.ts';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');

/** The most answers one set's call dispatches: the largest set the app lets a person build. */
export const GENERATE_SET_MAX = MODEL_SET_MODELS_MAX * MODEL_SET_SAMPLES_MAX;

/** One answer of a set: who answers it and the client's hash of its whole request (context + model + temperature). */
export const SetDispatchRequestSchema = z.object({
  model: z.string().min(1),
  /** 1-based, as the version's `setAnswer.sample` records it. */
  sample: z.number().int().positive(),
  temperature: z.number().min(0).max(2).optional(),
  requestHash: Sha256,
});
export type SetDispatchRequest = z.infer<typeof SetDispatchRequestSchema>;

/**
 * Issue 31: `POST /api/generate-set`, every answer of one ask of a model set in one call. The context (messages and
 * tools) travels once; each dispatch's request is that context with its model and temperature, hashed by the server
 * as `/api/generate` hashes a whole request. Any mismatch refuses the whole set before anything is dispatched.
 */
export const GenerateSetRequestSchema = z.object({
  context: z.object({
    messages: z.array(RequestMessageSchema).min(1),
    tools: z.record(z.string(), z.boolean()),
    toolDeclarations: z.array(ToolDeclarationSchema).optional(),
  }),
  contextHash: Sha256,
  images: z.array(GenerateImageSchema),
  target: z.object({ canvasId: z.string().min(1).max(100), nodeId: z.string().min(1).max(200) }).optional(),
  dispatches: z.array(SetDispatchRequestSchema).min(1).max(GENERATE_SET_MAX),
});
export type GenerateSetRequest = z.infer<typeof GenerateSetRequestSchema>;

/**
 * One `data:` payload of the set's stream: a `/api/generate` event of the dispatch at `index` (in the body's order),
 * or, with `index` null, the refusal of the whole set (an `answer-failed` before anything was dispatched).
 */
export const SetStreamEventSchema = z.object({
  index: z.number().int().nonnegative().nullable(),
  event: StreamEventSchema,
});
export type SetStreamEvent = z.infer<typeof SetStreamEventSchema>;
