import {
  compile,
  offeredTools,
  setCapRefusal,
  setEstimate,
  setLimits,
  setRequests,
  type CompiledContext,
  type EstimateTokens,
  type SetEstimate,
  type SetLimits,
  type SetRequests,
} from '../../core/index.ts';
import type { ModelSet } from '../../../protocol/index.ts';
import type { WeftState } from './weft-state.ts';

/** Counts are written in the person's locale, as `plural` writes them. */
const NUMBER = new Intl.NumberFormat();

/** What "Ask several…" shows before anything is sent, and what its run sends. */
export interface ModelSetPlan {
  limits: SetLimits;
  compiled: CompiledContext;
  requests: SetRequests;
  estimate: SetEstimate;
  /** Why the ask may not go (over the per-ask cap, or too long for the smallest window); null when it may. */
  refusal: string | null;
}

export type ModelSetPlanResult = { ok: true; plan: ModelSetPlan } | { ok: false; code: string; message: string };

/**
 * Issue 31: the plan of one ask of a node's model set — compiled once for the set's most restrictive model, every
 * request built from it, priced per model and in total, and checked against the per-ask cap in Settings. The dialog
 * shows it and the run sends exactly its requests. `blocks` are the [Memory] and recall blocks the ask carries.
 */
export function modelSetPlan(
  state: Pick<WeftState, 'graph' | 'shown' | 'models' | 'settings'>,
  nodeId: string,
  setId: string,
  blocks: { memoryBlock?: string | null; recallBlock?: string | null } = {},
  countTokensFor?: (modelId: string) => EstimateTokens,
  /** The set being edited in "Ask several…" before it is stored on the node; the node's own set when absent. */
  draft?: ModelSet,
): ModelSetPlanResult {
  const graph = state.graph;
  const node = graph?.nodes.get(nodeId);
  const modelSet = draft ?? (node?.kind === 'question' ? node.modelSet : undefined);
  if (!graph || node?.kind !== 'question' || !modelSet)
    return { ok: false, code: 'model-set-missing', message: 'This question has no model set: pick its models first.' };
  const limited = setLimits(modelSet, state.models);
  if (!limited.ok) return limited;
  const limits = limited.value;
  const estimateTokens = countTokensFor?.(limits.windowSetBy);
  const compiled = compile(graph, nodeId, { stale: state.shown, ...(estimateTokens ? { estimateTokens } : {}) });
  const offered = offeredTools(graph.canvas, node);
  const requests = setRequests(compiled, modelSet, limits, {
    setId,
    lane: 'chat',
    memoryBlock: blocks.memoryBlock ?? null,
    recallBlock: blocks.recallBlock ?? null,
    chatTools: offered.chatTools,
    mcpTools: offered.mcpTools,
  });
  const priceOf = (id: string) => state.models.find((model) => model.id === id)?.pricePerMTokIn ?? null;
  const estimate = setEstimate(modelSet, compiled.tokens.total, priceOf);
  const offline = (id: string) => state.models.find((model) => model.id === id)?.offline ?? false;
  const tooLong =
    compiled.tokens.total > limits.contextWindow
      ? `The context is about ${NUMBER.format(compiled.tokens.total)} tokens, more than the ${NUMBER.format(limits.contextWindow)} of ${limits.windowSetBy}, the smallest window in the set.`
      : null;
  const refusal = tooLong ?? setCapRefusal(estimate, state.settings?.setCapUsd ?? null, offline);
  return { ok: true, plan: { limits, compiled, requests, estimate, refusal } };
}
