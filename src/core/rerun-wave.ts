import type { Graph } from './graph.ts';
import { askedByHandReason } from './asked-by-hand.ts';
import { rerunAllowed } from './rerun-allowed.ts';
import { ancestorsOfAll, descendants, topologicalOrder } from './walk.ts';

/** One run of a planned wave. */
export interface WaveStep {
  nodeId: string;
  /** `replay`: a member of the shown stale set; `auto-rerun`: an auto-rerun node below the wave's start. */
  lane: 'replay' | 'auto-rerun';
  /** The wave's start and earlier steps upstream of this one (any wire); see `waveStepRuns`. */
  after: string[];
}

/** How a step (or the wave's start) ended, as the executor saw it. */
export type StepOutcome = 'complete' | 'failed' | 'skipped';

/** Whether a wave may run a node unattended: live, runnable and not asked by hand only (the agent lane). */
function runsUnattended(graph: Graph, id: string): boolean {
  const node = graph.nodes.get(id);
  return rerunAllowed(node).ok && askedByHandReason(node) === null;
}

/** C8: the shown stale set in dependency order (upstream first); archived and agent-lane nodes never run. */
export function replayOrder(graph: Graph, shown: ReadonlySet<string>): string[] {
  const members = new Set<string>();
  for (const id of shown) if (runsUnattended(graph, id)) members.add(id);
  return dependencyOrder(graph, members);
}

/**
 * C4: the wave that follows the completion of `completedId`, planned once: every live auto-rerun
 * question downstream of it (any wire), in dependency order, each once. Archived nodes never run.
 * Reruns that complete inside the wave start no wave of their own — the plan already holds
 * everything below them, and dependency order means each run sees every updated ancestor, so one
 * run per node is all a wave ever needs (a node's `autoRerun.rounds`, at least 1, is never exceeded).
 */
export function autoRerunWave(graph: Graph, completedId: string): WaveStep[] {
  return planWave(graph, new Set([completedId]), new Set());
}

/**
 * C8: a Replay is one wave: the shown stale set (lane `replay`) and the auto-rerun nodes below it
 * (lane `auto-rerun`), in one dependency order, each once — by the same rule as `autoRerunWave`.
 * `skipped`: the nodes the person unticked in the Replay dialog.
 */
export function replayWave(
  graph: Graph,
  shown: ReadonlySet<string>,
  skipped: ReadonlySet<string> = new Set(),
): WaveStep[] {
  // Nodes the person unticked do not run, and an auto-rerun node is planned only below a node that does.
  const replay = replayOrder(graph, shown).filter((id) => !skipped.has(id));
  return planWave(graph, new Set(), new Set(replay)).filter((step) => !skipped.has(step.nodeId));
}

/**
 * Whether the executor runs `step` now, given how the start and earlier steps ended. A replay step
 * always runs (the person asked for it; the executor still re-checks it is runnable and stale). An
 * auto-rerun step builds only on completed answers: it runs when something upstream of it completed
 * in this wave and nothing upstream of it failed or was stopped.
 */
export function waveStepRuns(step: WaveStep, outcomes: ReadonlyMap<string, StepOutcome>): boolean {
  if (step.lane === 'replay') return true;
  let completed = false;
  for (const id of step.after) {
    const outcome = outcomes.get(id);
    if (outcome === 'failed') return false;
    if (outcome === 'complete') completed = true;
  }
  return completed;
}

function planWave(graph: Graph, starts: ReadonlySet<string>, replay: ReadonlySet<string>): WaveStep[] {
  const members = new Set(replay);
  for (const id of descendants(graph, [...starts, ...replay])) {
    const node = graph.nodes.get(id);
    if (members.has(id) || !runsUnattended(graph, id) || node?.kind !== 'question' || !node.autoRerun.enabled) continue;
    members.add(id);
  }
  const wave = new Set([...starts, ...members]);
  return dependencyOrder(graph, members).map((nodeId) => ({
    nodeId,
    lane: replay.has(nodeId) ? 'replay' : 'auto-rerun',
    after: [...ancestorsOfAll(graph, [nodeId], 'all')].filter((id) => wave.has(id) && id !== nodeId).sort(),
  }));
}

/** Topological order of `members` along every wire, including paths through non-members. */
export function dependencyOrder(graph: Graph, members: ReadonlySet<string>): string[] {
  if (members.size <= 1) return [...members];
  // Order the members' joint upstream closure, then keep the members: paths through other
  // nodes still order them correctly.
  const closure = ancestorsOfAll(graph, members, 'all');
  for (const id of members) closure.add(id);
  return topologicalOrder(graph, closure, 'all').filter((id) => members.has(id));
}
