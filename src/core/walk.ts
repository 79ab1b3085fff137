import type { CanvasNode } from '../../protocol/index.ts';
import { incomingWires, outgoingWires, type Graph } from './graph.ts';
import { RankHeap } from './rank-heap.ts';

export type WireFilter = 'solid' | 'all';

/**
 * Every node reachable against the wires from `start` (excluding `start`). The walk passes
 * through archived nodes — archive hides a node's own content, not the wiring behind it —
 * and callers drop archived nodes with `isLive` when they read content.
 */
export function ancestors(graph: Graph, start: string, filter: WireFilter): Set<string> {
  const seen = ancestorsOfAll(graph, [start], filter);
  seen.delete(start);
  return seen;
}

/**
 * Every node reachable against the wires from any of `starts`. A start that is upstream of
 * another start is included; the others are not (unless reachable).
 */
export function ancestorsOfAll(graph: Graph, starts: Iterable<string>, filter: WireFilter): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop()!;
    for (const wireId of incomingWires(graph, id)) {
      const wire = graph.wires.get(wireId)!;
      if (filter === 'solid' && wire.kind !== 'solid') continue;
      if (seen.has(wire.from)) continue;
      seen.add(wire.from);
      stack.push(wire.from);
    }
  }
  return seen;
}

/** Every node reachable along the wires (any kind) from any of `starts`, excluding the starts. */
export function descendants(graph: Graph, starts: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const origin = new Set(starts);
  const stack = [...origin];
  while (stack.length > 0) {
    const id = stack.pop()!;
    for (const wireId of outgoingWires(graph, id)) {
      const to = graph.wires.get(wireId)!.to;
      if (origin.has(to) || seen.has(to)) continue;
      seen.add(to);
      stack.push(to);
    }
  }
  return seen;
}

/** The stable tie-break of C5: creation time, then id (code-unit order). */
export function compareNodes(left: CanvasNode, right: CanvasNode): number {
  if (left.createdAt !== right.createdAt) return left.createdAt - right.createdAt;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

/**
 * Topological order of `members` under the wires among them (solid only, or all kinds), ready
 * nodes taken by creation time then id. Independent of map insertion order. O((V+E) log V):
 * members are ranked once by the tie-break, then Kahn's algorithm runs on integer ranks with a
 * binary heap.
 */
export function topologicalOrder(graph: Graph, members: ReadonlySet<string>, filter: WireFilter): string[] {
  const nodes: CanvasNode[] = [];
  for (const id of members) nodes.push(graph.nodes.get(id)!);
  nodes.sort(compareNodes);
  const count = nodes.length;
  const rankOf = new Map<string, number>();
  for (let rank = 0; rank < count; rank += 1) rankOf.set(nodes[rank]!.id, rank);
  // Edges among members as adjacency lists over ranks.
  const pending = new Int32Array(count);
  const successors: number[][] = [];
  for (let rank = 0; rank < count; rank += 1) {
    const list: number[] = [];
    for (const wireId of outgoingWires(graph, nodes[rank]!.id)) {
      const wire = graph.wires.get(wireId)!;
      if (filter === 'solid' && wire.kind !== 'solid') continue;
      const to = rankOf.get(wire.to);
      if (to === undefined) continue;
      list.push(to);
      pending[to] = pending[to]! + 1;
    }
    successors.push(list);
  }
  const heap = new RankHeap(count);
  for (let rank = 0; rank < count; rank += 1) if (pending[rank] === 0) heap.push(rank);
  const order: string[] = [];
  while (heap.size > 0) {
    const rank = heap.pop();
    order.push(nodes[rank]!.id);
    for (const next of successors[rank]!) {
      pending[next] = pending[next]! - 1;
      if (pending[next] === 0) heap.push(next);
    }
  }
  return order;
}

/**
 * When the wire `from → to` would close a cycle, the path it would close: `to`, …, `from`
 * following existing wires (any kind), then back to `to`. Null when the wire is safe.
 */
export function cyclePath(graph: Graph, from: string, to: string): string[] | null {
  if (from === to) return [to, to];
  // Depth-first search from `to` along outgoing wires looking for `from`, remembering parents.
  const parent = new Map<string, string>();
  const stack = [to];
  const seen = new Set([to]);
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === from) {
      const path = [from];
      let cursor = from;
      while (cursor !== to) {
        cursor = parent.get(cursor)!;
        path.push(cursor);
      }
      path.reverse();
      path.push(to);
      return path;
    }
    for (const wireId of outgoingWires(graph, id)) {
      const next = graph.wires.get(wireId)!.to;
      if (seen.has(next)) continue;
      seen.add(next);
      parent.set(next, id);
      stack.push(next);
    }
  }
  return null;
}
