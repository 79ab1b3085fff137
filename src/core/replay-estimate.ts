import { askedByHandReason } from './asked-by-hand.ts';
import { compile } from './compile.ts';
import type { Graph } from './graph.ts';
import { replayWave, type WaveStep } from './rerun-wave.ts';
import type { EstimateTokens } from './tokens.ts';

export interface ReplayEstimateOptions {
  /** The token counter of the model a node would be sent to; core's length estimate when absent. */
  estimateTokens?: (nodeId: string) => EstimateTokens | undefined;
  /** The input price of the model a node would be sent to, per million tokens; null when unknown. */
  pricePerMTokIn?: (nodeId: string) => number | null;
  /** Nodes the person unticked: they and the auto-reruns only they would start leave the wave. */
  skipped?: ReadonlySet<string>;
}

/** One step of the wave with its own figures, for the dialog's list. */
export interface ReplayStepEstimate {
  nodeId: string;
  lane: WaveStep['lane'];
  inputTokens: number;
  /** Null when the node's model has no known price. */
  price: number | null;
}

export interface ReplayEstimate {
  /** The wave Replay would run, in order: the shown stale set and the auto-reruns below it. */
  steps: WaveStep[];
  count: number;
  /** Input tokens of every request Replay would send, each compiled as it stands now. */
  inputTokens: number;
  /** The input price of those requests; null when any node's price is unknown (or none was given). */
  price: number | null;
  /** Each step in run order with its tokens and price. */
  perStep: ReplayStepEstimate[];
  /** Shown stale nodes Replay never runs because only the person asks them (the agent lane), with the reason. */
  byHand: { nodeId: string; reason: string }[];
}

/** The input price of `tokens` at `perMillion` per million tokens; null when the price is unknown. */
export function inputPrice(tokens: number, perMillion: number | null): number | null {
  return perMillion === null ? null : (tokens * perMillion) / 1_000_000;
}

/**
 * What the Replay confirm dialog shows before anything runs (C8): the count, the input tokens and
 * their price. Each node is compiled with the shown stale set, exactly as its request would be;
 * answers written during Replay can only make later requests shorter or longer by their own
 * length, which the estimate cannot know.
 */
export function replayEstimate(
  graph: Graph,
  shown: ReadonlySet<string>,
  options: ReplayEstimateOptions = {},
): ReplayEstimate {
  const steps = replayWave(graph, shown, options.skipped);
  const perStep: ReplayStepEstimate[] = [];
  let inputTokens = 0;
  let price: number | null = options.pricePerMTokIn ? 0 : null;
  for (const { nodeId, lane } of steps) {
    const estimateTokens = options.estimateTokens?.(nodeId);
    const tokens = compile(graph, nodeId, { stale: shown, ...(estimateTokens ? { estimateTokens } : {}) }).tokens.total;
    inputTokens += tokens;
    const stepPrice = inputPrice(tokens, options.pricePerMTokIn?.(nodeId) ?? null);
    perStep.push({ nodeId, lane, inputTokens: tokens, price: stepPrice });
    price = price === null || stepPrice === null ? null : price + stepPrice;
  }
  const byHand: ReplayEstimate['byHand'] = [];
  for (const nodeId of shown) {
    const reason = askedByHandReason(graph.nodes.get(nodeId));
    if (reason) byHand.push({ nodeId, reason });
  }
  return { steps, count: steps.length, inputTokens, price, perStep, byHand };
}
