import { z } from 'zod';
import { ToolDeclarationSchema } from './chat-tools.ts';

/**
 * The canonical request (C9): exactly what a model is handed. Its SHA-256 over RFC 8785
 * canonical JSON is the request hash that the preview shows, the server recomputes and the
 * `commit` event records. Images travel as digests here; their bytes are sent beside it.
 */
export const RequestPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), hash: z.string().regex(/^[0-9a-f]{64}$/), mediaType: z.string() }),
]);
export type RequestPart = z.infer<typeof RequestPartSchema>;

export const RequestMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.array(RequestPartSchema),
});
export type RequestMessage = z.infer<typeof RequestMessageSchema>;

export const CanonicalRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(RequestMessageSchema).min(1),
  /** Tool flags the model is offered (e.g. { webSearch: false }). */
  tools: z.record(z.string(), z.boolean()),
  /** C35: the declarations of the tools switched on, by name; absent when none is (older hashes unchanged). */
  toolDeclarations: z.array(ToolDeclarationSchema).optional(),
  /** Issue 31: a model set's sampling temperature; absent (older hashes unchanged) means the provider's default. */
  temperature: z.number().min(0).max(2).optional(),
});
export type CanonicalRequest = z.infer<typeof CanonicalRequestSchema>;

export const DispatchLaneSchema = z.enum(['chat', 'replay', 'auto-rerun', 'agent']);
export type DispatchLane = z.infer<typeof DispatchLaneSchema>;
