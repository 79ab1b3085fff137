import type { CanvasNode } from '../../protocol/canvas-document.ts';
import { incomingWires, outgoingWires, type Graph } from './graph.ts';

export type WireFilter = 'solid' | 'all';

/**
 * Every node reachable against the wires from `start` (excluding `start`). The walk passes
 * through archived nodes — archive hides a node's own content, not the wiring behind it —
 * and callers drop archived nodes with `isLive` when they read content.
 */
export function ancestors(graph: Graph, start: string, filter: WireFilter): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    for (const wireId of incomingWires(graph, id)) {
      const wire = graph.wires.get(wireId)!;
      if (filter === 'solid' && wire.kind !== 'solid') continue;
      if (wire.from === start || seen.has(wire.from)) continue;
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
 * nodes taken by creation time then id. Independent of map insertion order. O((V+E) log V).
 */
export function topologicalOrder(graph: Graph, members: ReadonlySet<string>, filter: WireFilter): string[] {
  const pending = new Map<string, number>();
  for (const id of members) {
    let count = 0;
    for (const wireId of incomingWires(graph, id)) {
      const wire = graph.wires.get(wireId)!;
      if (filter === 'solid' && wire.kind !== 'solid') continue;
      if (members.has(wire.from)) count += 1;
    }
    pending.set(id, count);
  }
  const heap = new NodeHeap();
  for (const [id, count] of pending) if (count === 0) heap.push(graph.nodes.get(id)!);
  const order: string[] = [];
  while (heap.size > 0) {
    const node = heap.pop();
    order.push(node.id);
    for (const wireId of outgoingWires(graph, node.id)) {
      const wire = graph.wires.get(wireId)!;
      if (filter === 'solid' && wire.kind !== 'solid') continue;
      const left = pending.get(wire.to);
      if (left === undefined) continue;
      pending.set(wire.to, left - 1);
      if (left === 1) heap.push(graph.nodes.get(wire.to)!);
    }
  }
  return order;
}

/** Binary min-heap on `compareNodes`. */
class NodeHeap {
  private readonly items: CanvasNode[] = [];

  get size(): number {
    return this.items.length;
  }

  push(node: CanvasNode): void {
    const items = this.items;
    items.push(node);
    let index = items.length - 1;
    // Sift up: move larger parents down, then place the node once.
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent]!;
      if (compareNodes(above, node) <= 0) break;
      items[index] = above;
      index = parent;
    }
    items[index] = node;
  }

  pop(): CanvasNode {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      // Sift down: move smaller children up, then place the last item once.
      let index = 0;
      const size = items.length;
      for (;;) {
        const left = index * 2 + 1;
        if (left >= size) break;
        const right = left + 1;
        const child = right < size && compareNodes(items[right]!, items[left]!) < 0 ? right : left;
        if (compareNodes(items[child]!, last) >= 0) break;
        items[index] = items[child]!;
        index = child;
      }
      items[index] = last;
    }
    return top;
  }
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
