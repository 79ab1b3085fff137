import {
  CONTEXT_BUNDLE_FORMAT,
  CONTEXT_BUNDLE_VERSION,
  type BundleSource,
  type ChatToolId,
  type ContextBundle,
  type ToolDeclaration,
} from '../../protocol/index.ts';
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
  /** The [Memory] block the ask sends (C14): in the bundle as its `profile` part, so its hash is the commit's. */
  memoryBlock?: string | null;
  /** The tools the ask offers (C35): their declarations are in the request, so in its hash. */
  chatTools?: readonly ChatToolId[];
  mcpTools?: readonly ToolDeclaration[];
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
    ...(options.memoryBlock ? { memoryBlock: options.memoryBlock } : {}),
    ...(options.chatTools ? { chatTools: options.chatTools } : {}),
    ...(options.mcpTools ? { mcpTools: options.mcpTools } : {}),
  });
  const sources: BundleSource[] = compiled.sources.map((source) => ({
    ...source,
    contentPartIds: [...source.contentPartIds],
  }));
  // The block sits just before the question, which compile always puts last (as buildRequest places it).
  if (options.memoryBlock)
    sources.splice(Math.max(0, sources.length - 1), 0, {
      nodeId: compiled.nodeId,
      layer: 'profile',
      part: 'profile',
      partId: 'memory',
      contentPartIds: [],
    });
  return {
    format: CONTEXT_BUNDLE_FORMAT,
    version: CONTEXT_BUNDLE_VERSION,
    canvasId: graph.canvas.id,
    nodeId: compiled.nodeId,
    model: options.model,
    messages: built.request.messages,
    sources,
    requestHash: built.requestHash,
    createdAt: options.createdAt,
  };
}
