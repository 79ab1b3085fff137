import type { CanvasNode, Wire } from '../../protocol/index.ts';

/**
 * An independent, deliberately naive reference for the order core's `compile` gives a node's context (the
 * subset of C5 the benchmark's canvases use: notes, questions with answers, solid and dashed wires, archive).
 * It shares no code with core: scope by breadth-first search, order by Kahn's algorithm, ties by creation
 * time then id. Returns one `nodeId:part` entry per compiled message.
 */
export interface ReferenceGraph {
  nodes: ReadonlyMap<string, CanvasNode>;
  wires: ReadonlyMap<string, Wire>;
}

const byCreation = (left: CanvasNode, right: CanvasNode) =>
  left.createdAt - right.createdAt || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);

function hasAnswer(node: CanvasNode): boolean {
  if (node.kind !== 'question' || node.currentVersionId === null) return false;
  return node.versions.some((version) => version.id === node.currentVersionId && version.status === 'complete');
}

export function referenceOrder(graph: ReferenceGraph, targetId: string): string[] {
  const wires = [...graph.wires.values()];
  const solidInto = (id: string) => wires.filter((wire) => wire.to === id && wire.kind === 'solid');
  // Scope: everything behind the target over solid wires (archived nodes still pass the walk on).
  const scope = new Set<string>();
  const queue = [targetId];
  while (queue.length > 0) {
    for (const wire of solidInto(queue.shift()!)) {
      if (scope.has(wire.from)) continue;
      scope.add(wire.from);
      queue.push(wire.from);
    }
  }
  // References: dashed wires into the target or the scope, from outside the scope; `full` wins.
  const references = new Map<string, 'quote' | 'full'>();
  for (const wire of wires) {
    if (wire.kind !== 'dashed' || wire.from === targetId || scope.has(wire.from)) continue;
    if (wire.to !== targetId && !scope.has(wire.to)) continue;
    if (references.get(wire.from) !== 'full') references.set(wire.from, wire.depth);
  }
  // Chain: Kahn's algorithm over the scope's solid wires, the earliest-created ready node first.
  const pending = new Map<string, number>();
  for (const id of scope) pending.set(id, solidInto(id).filter((wire) => scope.has(wire.from)).length);
  const chain: CanvasNode[] = [];
  for (;;) {
    const ready = [...pending.entries()]
      .filter(([, count]) => count === 0)
      .map(([id]) => graph.nodes.get(id)!)
      .sort(byCreation);
    const next = ready[0];
    if (!next) break;
    pending.delete(next.id);
    chain.push(next);
    for (const wire of wires)
      if (wire.kind === 'solid' && wire.from === next.id && pending.has(wire.to))
        pending.set(wire.to, pending.get(wire.to)! - 1);
  }
  const order: string[] = [];
  const live = (node: CanvasNode | undefined): node is CanvasNode => node !== undefined && !node.archived;
  for (const node of [...references.keys()]
    .map((id) => graph.nodes.get(id))
    .filter(live)
    .sort(byCreation))
    order.push(`${node.id}:reference`);
  for (const node of chain.filter(live)) {
    if (node.kind === 'note') order.push(`${node.id}:note`);
    if (node.kind === 'question') {
      order.push(`${node.id}:question`);
      if (hasAnswer(node)) order.push(`${node.id}:answer`);
    }
  }
  order.push(`${targetId}:question`);
  return order;
}
