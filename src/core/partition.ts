import type { CanvasNode } from '../../protocol/index.ts';
import type { Graph } from './graph.ts';
import { clearMarks, FULL, graphIndex, scratch, SOLID, solidAncestors, solidTopologicalOrder } from './graph-index.ts';
import { GraphError } from './graph-error.ts';
import { isLive } from './live.ts';
import { compareNodes } from './walk.ts';

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
  const index = graphIndex(graph, nodeId);
  const self = index.indexOf.get(nodeId);
  if (self === undefined) return { target, materials: [], references: [], chain: [] };
  const { mark } = scratch(index.ids.length);
  const scope = solidAncestors(index, self, mark);
  // Dashed sources into the target or the chain scope, outside the scope; `full` wins.
  const referenced = new Map<number, ReferenceDepth>();
  let order: number[];
  try {
    const collect = (node: number) => {
      for (let edge = index.inStart[node]!; edge < index.inStart[node + 1]!; edge += 1) {
        const kind = index.inKind[edge]!;
        if (kind === SOLID) continue;
        const from = index.inFrom[edge]!;
        if (from === self || mark[from] === 1) continue;
        if (referenced.get(from) !== 'full') referenced.set(from, kind === FULL ? 'full' : 'quote');
      }
    };
    collect(self);
    for (const node of scope) collect(node);
    order = solidTopologicalOrder(index, scope, mark);
  } finally {
    clearMarks(mark, scope);
  }

  const materials: CanvasNode[] = [];
  const references: { node: CanvasNode; depth: ReferenceDepth }[] = [];
  const chain: CanvasNode[] = [];
  for (const position of order) {
    const node = graph.nodes.get(index.ids[position]!)!;
    if (!isLive(node)) continue;
    if (node.kind === 'material') materials.push(node);
    else if (node.kind === 'question' || node.kind === 'note' || node.kind === 'mirror') chain.push(node);
  }
  for (const [position, depth] of referenced) {
    const node = graph.nodes.get(index.ids[position]!)!;
    if (!isLive(node) || node.kind === 'frame') continue;
    if (node.kind === 'material') materials.push(node);
    else references.push({ node, depth });
  }
  materials.sort(compareNodes);
  references.sort((left, right) => compareNodes(left.node, right.node));
  return { target, materials, references, chain };
}

/** The live questions, notes and mirrors upstream of `nodeId` over solid wires, in chain order. */
export function liveSolidChain(graph: Graph, nodeId: string): CanvasNode[] {
  const index = graphIndex(graph, nodeId);
  const self = index.indexOf.get(nodeId);
  if (self === undefined) return [];
  const { mark } = scratch(index.ids.length);
  const scope = solidAncestors(index, self, mark);
  let order: number[];
  try {
    order = solidTopologicalOrder(index, scope, mark);
  } finally {
    clearMarks(mark, scope);
  }
  const chain: CanvasNode[] = [];
  for (const position of order) {
    const node = graph.nodes.get(index.ids[position]!)!;
    if (isLive(node) && (node.kind === 'question' || node.kind === 'note' || node.kind === 'mirror')) chain.push(node);
  }
  return chain;
}
