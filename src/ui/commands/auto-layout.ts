import { Graph as LayoutGraph, layout } from '@dagrejs/dagre';
import type { CanvasNode } from '../../../protocol/index.ts';
import type { Graph, GraphChange } from '../../core/index.ts';

export interface LayoutSize {
  width: number;
  height: number;
}

/** What dagre writes on each node: its centre, beside the size it was given. */
interface LaidOut extends LayoutSize {
  x: number;
  y: number;
}

const CARD: LayoutSize = { width: 300, height: 170 };
const SPACING = { betweenRanks: 90, betweenNodes: 40, betweenComponents: 60 };

/**
 * Lays out `nodeIds` (every card when null) along their wires, left to right, with dagre. Frames keep their place;
 * the laid-out group keeps its top-left corner so the view does not jump. Returns one batch of moves (one undo
 * step), or null when nothing would move.
 */
export function autoLayout(
  graph: Graph,
  nodeIds: readonly string[] | null,
  sizeOf: (nodeId: string) => LayoutSize | undefined = () => undefined,
): Extract<GraphChange, { type: 'batch' }> | null {
  const members = (nodeIds ? nodeIds.map((id) => graph.nodes.get(id)) : [...graph.nodes.values()]).filter(
    (node): node is CanvasNode => node !== undefined && node.kind !== 'frame',
  );
  if (members.length < 2) return null;
  const inside = new Set(members.map((node) => node.id));
  const layoutGraph = new LayoutGraph<object, LaidOut, object>({ multigraph: false });
  layoutGraph.setGraph({
    rankdir: 'LR',
    ranksep: SPACING.betweenRanks,
    nodesep: SPACING.betweenNodes,
    edgesep: 20,
    marginx: 0,
    marginy: 0,
  });
  layoutGraph.setDefaultEdgeLabel(() => ({}));
  // Sorted ids: the same canvas lays out the same way every time.
  const sorted = [...members].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const node of sorted) {
    const size = sizeOf(node.id) ?? CARD;
    layoutGraph.setNode(node.id, { width: size.width, height: size.height, x: 0, y: 0 });
  }
  for (const wire of graph.wires.values()) {
    if (inside.has(wire.from) && inside.has(wire.to)) layoutGraph.setEdge(wire.from, wire.to);
  }
  layout(layoutGraph);

  const origin = {
    x: Math.min(...members.map((node) => node.position.x)),
    y: Math.min(...members.map((node) => node.position.y)),
  };
  const placed = sorted.map((node) => {
    const box = layoutGraph.node(node.id);
    return { node, x: box.x - box.width / 2, y: box.y - box.height / 2 };
  });
  const left = Math.min(...placed.map((entry) => entry.x));
  const top = Math.min(...placed.map((entry) => entry.y));
  const changes: GraphChange[] = [];
  for (const { node, x, y } of placed) {
    const position = { x: Math.round(origin.x + x - left), y: Math.round(origin.y + y - top) };
    if (position.x !== node.position.x || position.y !== node.position.y)
      changes.push({ type: 'move-node', nodeId: node.id, position });
  }
  return changes.length ? { type: 'batch', changes } : null;
}
