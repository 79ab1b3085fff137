import {
  CONTEXT_BUNDLE_FORMAT,
  CONTEXT_BUNDLE_VERSION,
  type BundleSource,
  type ContextBundle,
} from '../../protocol/index.ts';
import type { BuiltRequest, RequestMessageSource } from './build-request.ts';
import type { CompiledContext } from './compiled-context.ts';
import type { Graph } from './graph.ts';

/**
 * C26: a node's compiled context with its sources and request hash, portable to other tools. It is made from the
 * request the ask sends (`built`, from `buildRequest` over `compiled`), never rebuilt, so its late blocks ([Memory],
 * recall), tools and hash are the preview's and the commit's.
 */
export function buildContextBundle(
  graph: Graph,
  compiled: CompiledContext,
  built: Pick<BuiltRequest, 'request' | 'messageSources' | 'requestHash'>,
  createdAt: number,
): ContextBundle {
  const { request } = built;
  return {
    format: CONTEXT_BUNDLE_FORMAT,
    version: CONTEXT_BUNDLE_VERSION,
    canvasId: graph.canvas.id,
    nodeId: compiled.nodeId,
    model: request.model,
    messages: request.messages,
    sources: built.messageSources.map((origin) => bundleSource(compiled, origin)),
    tools: { ...request.tools },
    ...(request.toolDeclarations ? { toolDeclarations: request.toolDeclarations } : {}),
    requestHash: built.requestHash,
    createdAt,
  };
}

/** A message's source: the compiled part it came from, or the late block it is (its own named part). */
function bundleSource(compiled: CompiledContext, origin: RequestMessageSource): BundleSource {
  if (origin.kind === 'compiled') {
    const source = compiled.sources[origin.index]!;
    return { ...source, contentPartIds: [...source.contentPartIds] };
  }
  const partId = origin.source === 'profile' ? 'memory' : origin.source;
  return { nodeId: compiled.nodeId, layer: origin.source, part: origin.source, partId, contentPartIds: [] };
}
