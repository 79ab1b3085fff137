import type { CanvasNode } from '../../protocol/canvas-document.ts';
import { compile } from './compile.ts';
import type { Graph } from './graph.ts';
import type { EstimateTokens } from './tokens.ts';
import { isLive } from './live.ts';
import { ancestorsOfAll, descendants, topologicalOrder } from './walk.ts';

/** C8: the shown stale set in dependency order (upstream first); archived nodes never run. */
export function replayOrder(graph: Graph, shown: ReadonlySet<string>): string[] {
  const members = new Set<string>();
  for (const id of shown) if (runnable(graph.nodes.get(id))) members.add(id);
  return dependencyOrder(graph, members);
}

/**
 * C4: after `completedId` completes, the live auto-rerun nodes downstream of it (through any
 * wire), in dependency order. `roundsUsed` counts reruns already made in this wave; a node that
 * has used its `autoRerun.rounds` is left out, which bounds every wave.
 */
export function autoRerunTargets(
  graph: Graph,
  completedId: string,
  roundsUsed: ReadonlyMap<string, number> = new Map(),
): string[] {
  const targets = new Set<string>();
  for (const id of descendants(graph, [completedId])) {
    const node = graph.nodes.get(id);
    if (!node || !runnable(node) || node.kind !== 'question' || !node.autoRerun.enabled) continue;
    if ((roundsUsed.get(id) ?? 0) >= node.autoRerun.rounds) continue;
    targets.add(id);
  }
  return dependencyOrder(graph, targets);
}

export type RerunVerdict =
  { ok: true } | { ok: false; code: 'archived' | 'not-runnable' | 'not-found'; reason: string };

/** Every manual or automatic rerun asks this first; archived nodes are refused with a reason. */
export function rerunAllowed(node: CanvasNode | undefined): RerunVerdict {
  if (!node) return { ok: false, code: 'not-found', reason: 'This node no longer exists.' };
  if (!isLive(node)) {
    return {
      ok: false,
      code: 'archived',
      reason: 'This node is archived, so it never runs. Unarchive it to run it again.',
    };
  }
  if (node.kind !== 'question') {
    return { ok: false, code: 'not-runnable', reason: `A ${node.kind} node has no question to run.` };
  }
  return { ok: true };
}

function runnable(node: CanvasNode | undefined): boolean {
  return rerunAllowed(node).ok;
}

/** Topological order of `members` along every wire, including paths through non-members. */
function dependencyOrder(graph: Graph, members: ReadonlySet<string>): string[] {
  if (members.size <= 1) return [...members];
  // Order the members' joint upstream closure, then keep the members: paths through other
  // nodes still order them correctly.
  const closure = ancestorsOfAll(graph, members, 'all');
  for (const id of members) closure.add(id);
  return topologicalOrder(graph, closure, 'all').filter((id) => members.has(id));
}

export interface ReplayEstimate {
  /** The nodes Replay would run, in order. */
  order: string[];
  count: number;
  /** Input tokens of every request Replay would send, each compiled as it stands now. */
  inputTokens: number;
}

/**
 * What the Replay confirm dialog shows before anything runs (C8): the count and the input
 * tokens (the UI prices them with the chosen model). Each node is compiled with the shown
 * stale set, exactly as its request would be; answers written during Replay can only make
 * later requests shorter or longer by their own length, which the estimate cannot know.
 */
export function replayEstimate(
  graph: Graph,
  shown: ReadonlySet<string>,
  estimateTokens?: EstimateTokens,
): ReplayEstimate {
  const order = replayOrder(graph, shown);
  let inputTokens = 0;
  for (const id of order)
    inputTokens += compile(graph, id, { stale: shown, ...(estimateTokens ? { estimateTokens } : {}) }).tokens.total;
  return { order, count: order.length, inputTokens };
}
