import type { CanvasNode } from '../../protocol/canvas-document.ts';
import { incomingWires, type Graph } from './graph.ts';
import { GraphError } from './graph-error.ts';
import { isLive } from './live.ts';
import { ancestors, compareNodes, topologicalOrder } from './walk.ts';

export type ReferenceDepth = 'quote' | 'full';

/** A node's upstream split into the three layers of C5, each already in compile order. */
export interface Partition {
  target: CanvasNode;
  /** Live materials reached through solid wires or wired dashed, by creation time then id. */
  materials: CanvasNode[];
  /** Live dashed sources outside the chain, by creation time then id, with their depth. */
  references: { node: CanvasNode; depth: ReferenceDepth }[];
  /** Live questions, notes and mirrors upstream through solid wires, in topological order. */
  chain: CanvasNode[];
}

/**
 * Partition rules (documented in README):
 * - the chain scope is every node reachable backwards over solid wires; the walk passes through
 *   archived nodes (their content is dropped, the wiring behind them still counts);
 * - a dashed wire into the target or into any chain-scope node brings its source as a reference,
 *   unless that source is already in the chain scope; `full` wins over `quote` for one source;
 * - a material is a material whichever wire brings it;
 * - frames never enter (they cannot be wired).
 */
export function partitionUpstream(graph: Graph, nodeId: string): Partition {
  const target = graph.nodes.get(nodeId);
  if (!target) throw new GraphError('not-found', `There is no node ${nodeId} on this canvas.`, { nodeId });
  if (target.kind !== 'question' && target.kind !== 'mirror') {
    throw new GraphError('invalid', `A ${target.kind} node has no question to compile.`, { nodeId });
  }
  const scope = ancestors(graph, nodeId, 'solid');
  const referenced = new Map<string, ReferenceDepth>();
  const collect = (id: string) => {
    for (const wireId of incomingWires(graph, id)) {
      const wire = graph.wires.get(wireId)!;
      if (wire.kind !== 'dashed' || wire.from === nodeId || scope.has(wire.from)) continue;
      if (referenced.get(wire.from) !== 'full') referenced.set(wire.from, wire.depth);
    }
  };
  collect(nodeId);
  for (const id of scope) collect(id);

  const materials: CanvasNode[] = [];
  const references: { node: CanvasNode; depth: ReferenceDepth }[] = [];
  for (const id of scope) {
    const node = graph.nodes.get(id)!;
    if (node.kind === 'material' && isLive(node)) materials.push(node);
  }
  for (const [id, depth] of referenced) {
    const node = graph.nodes.get(id)!;
    if (!isLive(node) || node.kind === 'frame') continue;
    if (node.kind === 'material') materials.push(node);
    else references.push({ node, depth });
  }
  materials.sort(compareNodes);
  references.sort((left, right) => compareNodes(left.node, right.node));

  const chain: CanvasNode[] = [];
  for (const id of topologicalOrder(graph, scope, 'solid')) {
    const node = graph.nodes.get(id)!;
    if (isLive(node) && (node.kind === 'question' || node.kind === 'note' || node.kind === 'mirror')) chain.push(node);
  }
  return { target, materials, references, chain };
}
