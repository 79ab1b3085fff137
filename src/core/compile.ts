import type { Graph } from './graph.ts';
import type { CompiledContext } from './compiled-context.ts';
import type { EstimateTokens } from './tokens.ts';

export interface CompileOptions {
  /** The shown stale set (`shownStale`): answers in it carry STALE_MARK. Default: none. */
  stale?: ReadonlySet<string>;
  /** Default `estimateTokensByLength` (chars / 4). */
  estimateTokens?: EstimateTokens;
}

/** C5: the one compiler. Pure; the same graph and options always give the same bytes. */
export function compile(graph: Graph, nodeId: string, options: CompileOptions = {}): CompiledContext {
  void graph;
  void nodeId;
  void options;
  throw new Error('compile: in progress');
}
