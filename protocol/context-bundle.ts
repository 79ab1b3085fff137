import { z } from 'zod';
import { ToolDeclarationSchema } from './chat-tools.ts';
import { RequestMessageSchema, type CanonicalRequest } from './dispatch-request.ts';

/**
 * Context Bundle (C26): the compiled context of one node with its sources and request hash, portable to other
 * tools. Images travel as digests (hash + media type).
 * - Version 1: messages, sources, hash over `{ model, messages, tools: {} }`.
 * - Version 2: the request exactly as the ask sends it — a `recall` source for the recall block (C16), and the
 *   `tools` flags and `toolDeclarations` (C35) the hash covers. A version 1 reader would refuse a `recall` source
 *   and mis-verify a bundle with tools, hence the new version; version 1 bundles read as before.
 */
export const CONTEXT_BUNDLE_FORMAT = 'weft.context-bundle';
export const CONTEXT_BUNDLE_VERSION = 2;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');

export const BundleSourceSchema = z.object({
  nodeId: z.string().min(1),
  /**
   * `profile`: the [Memory] block (C14) the request carried, just before the question; `recall`: the recall block
   * (C16), after it; `system`: a system message the request starts with.
   */
  layer: z.enum(['role', 'materials', 'references', 'chain', 'question', 'profile', 'recall', 'system']),
  part: z.enum([
    'role',
    'material',
    'reference',
    'question',
    'answer',
    'note',
    'execution',
    'attachment',
    'profile',
    'recall',
    'system',
  ]),
  partId: z.string().min(1),
  contentPartIds: z.array(z.string()),
});
export type BundleSource = z.infer<typeof BundleSourceSchema>;

export const ContextBundleSchema = z.object({
  format: z.literal(CONTEXT_BUNDLE_FORMAT),
  version: z.union([z.literal(1), z.literal(CONTEXT_BUNDLE_VERSION)]),
  canvasId: z.string().min(1),
  nodeId: z.string().min(1),
  /** The model the request hash was computed for. */
  model: z.string().min(1),
  messages: z.array(RequestMessageSchema).min(1),
  /** Parallel to `messages`. */
  sources: z.array(BundleSourceSchema),
  /** Version 2: the request's tool flags (absent = none, as in version 1). */
  tools: z.record(z.string(), z.boolean()).optional(),
  /** Version 2: the declarations of the tools the ask offered (absent when none was, as in the request). */
  toolDeclarations: z.array(ToolDeclarationSchema).optional(),
  /** SHA-256 of the canonical request (C9) that `bundleRequest` rebuilds from this bundle. */
  requestHash: Sha256,
  createdAt: z.number().int().nonnegative(),
});
export type ContextBundle = z.infer<typeof ContextBundleSchema>;

/** The canonical request (C9) a bundle's hash was computed over: its model, messages and tools. */
export function bundleRequest(bundle: ContextBundle): CanonicalRequest {
  return {
    model: bundle.model,
    messages: bundle.messages,
    tools: { ...(bundle.tools ?? {}) },
    ...(bundle.toolDeclarations ? { toolDeclarations: bundle.toolDeclarations } : {}),
  };
}

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
