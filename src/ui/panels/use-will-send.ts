import { useMemo } from 'react';
import { useStore } from 'zustand';
import { requestTokens, type RequestTokens } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { memoryClient, plannedUnhashedRequest } from '../store/index.ts';
import { useRecallPlan } from '../recall/use-recall-plan.ts';
import { hashRequest } from './request-hasher.ts';
import { APPROXIMATE_COUNTER, tokenCounterFor, useTokenizersVersion, type TokenCounter } from '../tokens/index.ts';

type Plan = NonNullable<ReturnType<typeof plannedUnhashedRequest>>;

/** What the node's Ask will send now, as the summary beside Ask and the will-send preview both show it. */
export type WillSend = Plan & {
  counter: TokenCounter;
  /** Every sent part counted over the request itself, so the parts add up to `total`. */
  tokens: RequestTokens;
  block: string | null;
  recallBlock: string | null;
};

// The summary and the open preview ask for the same plan in one render: the second gets the first's, not a recompile.
let last: { inputs: unknown[]; willSend: WillSend | null } | null = null;

function plannedOnce(inputs: unknown[], plan: () => WillSend | null): WillSend | null {
  if (last && last.inputs.length === inputs.length && last.inputs.every((input, i) => Object.is(input, inputs[i])))
    return last.willSend;
  const willSend = plan();
  last = { inputs, willSend };
  return willSend;
}

/**
 * The node's planned request (C5, C9, C14, C16): the compiled context with the [Memory] and recall blocks the dispatch
 * will carry, counted with the node's model's counter, and its hash started in the worker.
 */
export function useWillSend(node: QuestionNode) {
  const graph = useWeft((state) => state.graph);
  const shown = useWeft((state) => state.shown);
  const models = useWeft((state) => state.models);
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const tokenizers = useTokenizersVersion();
  // The profile as the dispatch will read it (C14): a change re-plans the preview.
  const memoryLoaded = useStore(memoryClient.view, (view) => view.loaded);
  // C16: the recall block the run will fetch the same plan for (a node with recall off has none).
  const recall = useRecallPlan(node).entry;
  const recallBlock = recall?.state === 'ready' ? recall.plan.block : null;
  const willSend = useMemo(
    () =>
      plannedOnce([graph, shown, models, defaultModelId, node.id, tokenizers, memoryLoaded, recallBlock], () => {
        // The counter of the node's model, as plannedRequest picks it; a tokenizer arriving re-runs this.
        let counter: TokenCounter = APPROXIMATE_COUNTER;
        const block = graph && memoryLoaded ? memoryClient.blockFor(graph.canvas.id, 'chat', node.memoryReading) : null;
        const result = plannedUnhashedRequest(
          { graph, shown, models, defaultModelId },
          node.id,
          'chat',
          (modelId) => {
            counter = tokenCounterFor(modelId);
            return counter.count;
          },
          block,
          recallBlock,
        );
        if (!result) return null;
        // The worker hashes the request while the panel renders and paints; `RequestHash` shows it when it is in.
        void hashRequest(result.built.request);
        const tokens = requestTokens(result.built, result.compiled, counter.count);
        return { ...result, counter, tokens, block, recallBlock };
      }),
    [graph, shown, models, defaultModelId, node.id, tokenizers, memoryLoaded, recallBlock],
  );
  return { willSend, recall, memoryLoaded, graph };
}
