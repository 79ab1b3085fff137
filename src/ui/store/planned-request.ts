import {
  assembleRequest,
  buildRequest,
  compile,
  offeredTools,
  type BuildRequestOptions,
  type EstimateTokens,
} from '../../core/index.ts';
import { OFFLINE_RECEIPT_MODEL_ID, type ModelInfo } from '../../../protocol/index.ts';
import type { AskOptions, WeftState } from './weft-state.ts';

/** The model a node dispatches to: its pin, else the default, else the offline receipt. */
export function modelFor(
  state: Pick<WeftState, 'models' | 'defaultModelId'>,
  pinned: string | null,
): ModelInfo | { id: string; takesImages: boolean; pricePerMTokIn: null } {
  const id = pinned ?? state.defaultModelId ?? OFFLINE_RECEIPT_MODEL_ID;
  return state.models.find((model) => model.id === id) ?? { id, takesImages: false, pricePerMTokIn: null };
}

/**
 * What the dispatch of `nodeId` will send now: the preview calls this, and so does every run. `countTokensFor`
 * gives the token counter of the node's model (the preview passes one); the request bytes never depend on it.
 */
export function plannedRequest(
  state: Pick<WeftState, 'graph' | 'shown' | 'models' | 'defaultModelId'>,
  nodeId: string,
  lane: AskOptions['lane'] = 'chat',
  countTokensFor?: (modelId: string) => EstimateTokens,
  /** The [Memory] block this dispatch carries (`MemoryClient.blockFor`), inserted after the compiled context. */
  memoryBlock: string | null = null,
  /** C16: the recall block this dispatch carries (`RecallClient`'s plan), inserted after the [Memory] block. */
  recallBlock: string | null = null,
) {
  const plan = plannedRequestPlan(state, nodeId, lane, countTokensFor, memoryBlock, recallBlock);
  return plan && { compiled: plan.compiled, built: buildRequest(plan.compiled, plan.options), model: plan.model };
}

/**
 * The same plan before its hash (`assembleRequest`): the will-send preview shows it at once and hashes the request
 * off the main thread (`useRequestHash`), so the bytes it shows are the bytes `plannedRequest` hashes and sends.
 */
export function plannedUnhashedRequest(...args: Parameters<typeof plannedRequest>) {
  const plan = plannedRequestPlan(...args);
  return plan && { compiled: plan.compiled, built: assembleRequest(plan.compiled, plan.options), model: plan.model };
}

function plannedRequestPlan(
  ...[state, nodeId, lane = 'chat', countTokensFor, memoryBlock = null, recallBlock = null]: Parameters<
    typeof plannedRequest
  >
) {
  const graph = state.graph;
  const node = graph?.nodes.get(nodeId);
  if (!graph || !node || node.kind !== 'question') return null;
  const model = modelFor(state, node.model);
  const estimateTokens = countTokensFor?.(model.id);
  // C35: a node's tools are offered only while its canvas allows tools.
  const offered = offeredTools(graph.canvas, node);
  const compiled = compile(graph, nodeId, { stale: state.shown, ...(estimateTokens ? { estimateTokens } : {}) });
  const options: BuildRequestOptions = {
    model: model.id,
    images: model.takesImages,
    lane,
    memoryBlock,
    recallBlock,
    chatTools: offered.chatTools,
    mcpTools: offered.mcpTools,
  };
  return { compiled, options, model };
}

/** The input price per million tokens of the model each node would be sent to (for `replayEstimate`). */
export function nodePrices(
  state: Pick<WeftState, 'graph' | 'models' | 'defaultModelId'>,
): (nodeId: string) => number | null {
  return (nodeId) => {
    const node = state.graph?.nodes.get(nodeId);
    return node?.kind === 'question' ? modelFor(state, node.model).pricePerMTokIn : null;
  };
}

/** The token counter of the model each node would be sent to (for `replayEstimate`). */
export function nodeTokenCounters(
  state: Pick<WeftState, 'graph' | 'models' | 'defaultModelId'>,
  countTokensFor: (modelId: string) => EstimateTokens,
): (nodeId: string) => EstimateTokens | undefined {
  return (nodeId) => {
    const node = state.graph?.nodes.get(nodeId);
    return node?.kind === 'question' ? countTokensFor(modelFor(state, node.model).id) : undefined;
  };
}
