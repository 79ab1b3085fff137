import { CONTEXT_BUNDLE_FORMAT, CONTEXT_BUNDLE_VERSION, type ContextBundle } from '../../protocol/index.ts';
import { buildRequest } from './build-request.ts';
import type { CompiledContext } from './compiled-context.ts';
import type { Graph } from './graph.ts';
import type { HashPort } from './hash-port.ts';

export interface ContextBundleOptions {
  model: string;
  createdAt: number;
  /** Whether the target takes images (else named placeholders, as in the request). */
  images?: boolean;
  /** SHA-256 for the request hash; the JavaScript port when absent. */
  hash?: HashPort;
  /** The [Memory] block the request carries (as `buildRequest`), so the bundle's hash is the request's. */
  memoryBlock?: string | null;
}

/** C26: a node's compiled context with its sources and request hash, portable to other tools. */
export function buildContextBundle(
  graph: Graph,
  compiled: CompiledContext,
  options: ContextBundleOptions,
): ContextBundle {
  const built = buildRequest(compiled, {
    model: options.model,
    images: options.images ?? true,
    ...(options.hash ? { hash: options.hash } : {}),
    memoryBlock: options.memoryBlock ?? null,
  });
  return {
    format: CONTEXT_BUNDLE_FORMAT,
    version: CONTEXT_BUNDLE_VERSION,
    canvasId: graph.canvas.id,
    nodeId: compiled.nodeId,
    model: options.model,
    messages: built.request.messages,
    sources: compiled.sources.map((source) => ({ ...source, contentPartIds: [...source.contentPartIds] })),
    requestHash: built.requestHash,
    createdAt: options.createdAt,
  };
}
