import { RUN_NAME_MAX } from '../../protocol/index.ts';
import { askedByHandReason } from './asked-by-hand.ts';
import { compile } from './compile.ts';
import type { Graph } from './graph.ts';
import { inputPrice } from './replay-estimate.ts';
import { replayOrder } from './rerun-wave.ts';
import { runVersion, runView } from './run-view.ts';
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
  /** Every question the run regenerates, upstream first (those it already answered are not run again). */
  steps: RerunStep[];
  /** Questions of the selection a run of this name already answered: a stopped run continues after them. */
  resumed: number;
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
 * priced at the override model's input price. A run of the same name and model that was stopped midway continues:
 * the questions it already answered are left out, and every step is estimated from the run's own view (`runView`),
 * as it will compile; during the run each later step compiles from the answers the run writes, which the estimate
 * cannot know.
 */
export function rerunPlan(graph: Graph, selection: ReadonlySet<string>, options: RerunPlanOptions): RerunPlan {
  const runName = options.runName.trim();
  const view = runView(graph, runName);
  const order = replayOrder(graph, selection).filter((id) => graph.nodes.get(id)?.kind === 'question');
  const estimateTokens = options.estimateTokens;
  const perMillion = options.pricePerMTokIn ?? null;
  const steps: RerunStep[] = [];
  let inputTokens = 0;
  let resumed = 0;
  for (const nodeId of order) {
    // Only a complete answer is done: a failed one is asked again when the run continues.
    if (runVersion(graph.nodes.get(nodeId), runName)?.status === 'complete') {
      resumed += 1;
      continue;
    }
    const tokens = compile(view, nodeId, estimateTokens ? { estimateTokens } : {}).tokens.total;
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
    resumed,
    count: steps.length,
    inputTokens,
    price: inputPrice(inputTokens, perMillion),
    byHand,
    refusal: rerunRefusal(graph, runName, options.model, steps.length, resumed),
  };
}

/** The model a run of this name was run under (its first version's), or null when there is no such run. */
function runModel(graph: Graph, runName: string): string | null {
  for (const node of graph.nodes.values())
    if (node.kind === 'question')
      for (const version of node.versions) if (version.run?.name === runName) return version.run.model;
  return null;
}

function rerunRefusal(graph: Graph, runName: string, model: string, count: number, resumed: number): string | null {
  if (runName.length === 0) return 'Name the run: its answers are kept under that name.';
  if (runName.length > RUN_NAME_MAX) return `A run's name is at most ${RUN_NAME_MAX} characters.`;
  // A run is one model: continuing it under another would mix two models under one name.
  const ranUnder = runModel(graph, runName);
  if (ranUnder !== null && ranUnder !== model)
    return `A run named “${runName}” is already on this canvas under ${ranUnder}: pick another name, or that model to continue it.`;
  if (count === 0 && resumed > 0)
    return `“${runName}” has answered every question of the selection: nothing left to run.`;
  if (count === 0) return 'Nothing to re-run: the selection holds no question a model can answer unattended.';
  return null;
}
