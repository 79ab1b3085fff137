import { RUN_NAME_MAX } from '../../protocol/index.ts';
import { askedByHandReason } from './asked-by-hand.ts';
import { compile } from './compile.ts';
import type { Graph } from './graph.ts';
import { inputPrice } from './replay-estimate.ts';
import { replayOrder } from './rerun-wave.ts';
import { runNames } from './run-view.ts';
import type { EstimateTokens } from './tokens.ts';

export interface RerunPlanOptions {
  /** The model every question of the subgraph is re-run under (the override). */
  model: string;
  /** The run's name: every version the run writes carries it. */
  runName: string;
  /** The override model's token counter; core's length estimate when absent. */
  estimateTokens?: EstimateTokens;
  /** The override model's input price per million tokens; null when unknown. */
  pricePerMTokIn?: number | null;
}

export interface RerunStep {
  nodeId: string;
  inputTokens: number;
  /** Null when the model has no known price. */
  price: number | null;
}

export interface RerunPlan {
  runName: string;
  model: string;
  /** Every question the run regenerates, upstream first. */
  steps: RerunStep[];
  count: number;
  inputTokens: number;
  /** Null when the model's price is unknown. */
  price: number | null;
  /** Selected questions the run leaves out because only the person asks them (the agent lane), with the reason. */
  byHand: { nodeId: string; reason: string }[];
  /** Why the run cannot start (an empty or used name, nothing to run); null when it can. */
  refusal: string | null;
}

/**
 * Issue 31: "Re-run under…" planned as Replay plans a wave (`replayOrder`: dependency order, archived and agent-lane
 * nodes never run), with a model override and a run name: every question of `selection` once, upstream first, each
 * priced at the override model's input price. A step compiles as the canvas stands now; during the run each step
 * compiles from the run's own upstream answers (`runView`), which the estimate cannot know.
 */
export function rerunPlan(graph: Graph, selection: ReadonlySet<string>, options: RerunPlanOptions): RerunPlan {
  const runName = options.runName.trim();
  const order = replayOrder(graph, selection).filter((id) => graph.nodes.get(id)?.kind === 'question');
  const estimateTokens = options.estimateTokens;
  const perMillion = options.pricePerMTokIn ?? null;
  const steps: RerunStep[] = [];
  let inputTokens = 0;
  for (const nodeId of order) {
    const tokens = compile(graph, nodeId, estimateTokens ? { estimateTokens } : {}).tokens.total;
    inputTokens += tokens;
    steps.push({ nodeId, inputTokens: tokens, price: inputPrice(tokens, perMillion) });
  }
  const byHand: RerunPlan['byHand'] = [];
  for (const nodeId of selection) {
    const reason = askedByHandReason(graph.nodes.get(nodeId));
    if (reason) byHand.push({ nodeId, reason });
  }
  return {
    runName,
    model: options.model,
    steps,
    count: steps.length,
    inputTokens,
    price: inputPrice(inputTokens, perMillion),
    byHand,
    refusal: rerunRefusal(graph, runName, steps.length),
  };
}

function rerunRefusal(graph: Graph, runName: string, count: number): string | null {
  if (runName.length === 0) return 'Name the run: its answers are kept under that name.';
  if (runName.length > RUN_NAME_MAX) return `A run's name is at most ${RUN_NAME_MAX} characters.`;
  if (runNames(graph).includes(runName))
    return `A run named “${runName}” is already on this canvas: pick another name.`;
  if (count === 0) return 'Nothing to re-run: the selection holds no question a model can answer unattended.';
  return null;
}
