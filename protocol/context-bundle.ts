import { z } from 'zod';
import { RequestMessageSchema } from './dispatch-request.ts';

/**
 * Context Bundle, version 1 (C26): the compiled context of one node with its sources and
 * request hash, portable to other tools. Images travel as digests (hash + media type).
 */
export const CONTEXT_BUNDLE_FORMAT = 'weft.context-bundle';
export const CONTEXT_BUNDLE_VERSION = 1;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');

export const BundleSourceSchema = z.object({
  nodeId: z.string().min(1),
  layer: z.enum(['materials', 'references', 'chain', 'question']),
  part: z.enum(['material', 'reference', 'question', 'answer', 'note', 'execution', 'attachment']),
  partId: z.string().min(1),
  contentPartIds: z.array(z.string()),
});
export type BundleSource = z.infer<typeof BundleSourceSchema>;

export const ContextBundleSchema = z.object({
  format: z.literal(CONTEXT_BUNDLE_FORMAT),
  version: z.literal(CONTEXT_BUNDLE_VERSION),
  canvasId: z.string().min(1),
  nodeId: z.string().min(1),
  /** The model the request hash was computed for. */
  model: z.string().min(1),
  messages: z.array(RequestMessageSchema).min(1),
  /** Parallel to `messages`. */
  sources: z.array(BundleSourceSchema),
  /** SHA-256 of the canonical request (C9) these messages form with `model` and no tools. */
  requestHash: Sha256,
  createdAt: z.number().int().nonnegative(),
});
export type ContextBundle = z.infer<typeof ContextBundleSchema>;
