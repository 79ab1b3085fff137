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
  /** `profile`: the [Memory] block (C14) the request carried, just before the question. */
  layer: z.enum(['role', 'materials', 'references', 'chain', 'question', 'profile']),
  part: z.enum(['role', 'material', 'reference', 'question', 'answer', 'note', 'execution', 'attachment', 'profile']),
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

export type ContextBundleReadResult =
  | { ok: true; bundle: ContextBundle }
  | { ok: false; error: { code: 'not-a-bundle' | 'newer-version' | 'corrupt'; message: string; path?: string } };

/** Reads a bundle another tool hands back: refuses foreign files, newer versions and corrupt ones. */
export function readContextBundle(input: unknown): ContextBundleReadResult {
  if (typeof input !== 'object' || input === null || (input as { format?: unknown }).format !== CONTEXT_BUNDLE_FORMAT) {
    return {
      ok: false,
      error: {
        code: 'not-a-bundle',
        message: `This is not a Weft Context Bundle (expected "format": "${CONTEXT_BUNDLE_FORMAT}").`,
      },
    };
  }
  const version = (input as { version?: unknown }).version;
  if (typeof version === 'number' && version > CONTEXT_BUNDLE_VERSION) {
    return {
      ok: false,
      error: {
        code: 'newer-version',
        message: `This bundle was made by a newer Weft (version ${version}; this Weft reads up to ${CONTEXT_BUNDLE_VERSION}).`,
      },
    };
  }
  const parsed = ContextBundleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    return {
      ok: false,
      error: {
        code: 'corrupt',
        message: `The bundle is damaged at ${path || 'the top level'}: ${issue.message}.`,
        path,
      },
    };
  }
  return { ok: true, bundle: parsed.data };
}
