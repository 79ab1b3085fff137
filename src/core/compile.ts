import { MessageSink, walkContext } from './assemble.ts';
import type { CompiledContext, LayerTokens } from './compiled-context.ts';
import type { Graph } from './graph.ts';
import { partitionUpstream } from './partition.ts';
import { estimateTokensByLength, type EstimateTokens } from './tokens.ts';

export interface CompileOptions {
  /** The shown stale set (`shownStale`): answers in it carry STALE_MARK. Default: none. */
  stale?: ReadonlySet<string>;
  /** Default `estimateTokensByLength` (chars / 4). Images are not counted. */
  estimateTokens?: EstimateTokens;
}

const NO_STALE: ReadonlySet<string> = new Set();

/**
 * C5: the one compiler. Materials → dashed references → solid chain (topological, ties by
 * creation time then id) → the question last. Pure: the same graph and options always give
 * the same bytes. Throws GraphError (`not-found`, `invalid`) for a node that cannot be compiled.
 */
export function compile(graph: Graph, nodeId: string, options: CompileOptions = {}): CompiledContext {
  const partition = partitionUpstream(graph, nodeId);
  const assembled = new MessageSink();
  const emitter = walkContext(graph, partition, { stale: options.stale ?? NO_STALE, blankOwn: false }, assembled);
  const estimate = options.estimateTokens ?? estimateTokensByLength;
  const tokens: LayerTokens = { role: 0, materials: 0, references: 0, chain: 0, question: 0, total: 0 };
  assembled.messages.forEach((message, index) => {
    let count = 0;
    for (const part of message.content) if (part.type === 'text') count += estimate(part.text);
    tokens[assembled.sources[index]!.layer] += count;
    tokens.total += count;
  });
  return {
    nodeId,
    messages: assembled.messages,
    sources: assembled.sources,
    tokens,
    attachments: assembled.attachments,
    role: emitter.resolvedRole.kind === 'role' ? emitter.resolvedRole.role : null,
    roleConflict: emitter.resolvedRole.kind === 'conflict' ? emitter.resolvedRole.candidates : null,
  };
}
