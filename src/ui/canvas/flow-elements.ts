import { MarkerType, Position, type Edge, type EdgeMarker, type Node, type NodeHandle } from '@xyflow/react';
import type { CanvasNode, Wire } from '../../../protocol/index.ts';

/** Nodes carry only their id: each card selects its own record from the store (narrow renders). */
export type FlowNodeData = { nodeId: string };
export type FlowNode = Node<FlowNodeData>;
export type FlowEdgeData = { wire: Wire };
export type FlowEdge = Edge<FlowEdgeData>;

const FRAME_DEFAULT = { width: 520, height: 340 };

/**
 * Estimated handle bounds for a card not yet measured. React Flow renders every node once until it
 * knows its handles (to measure them); giving estimates lets it cull off-screen cards from the
 * first frame. Dropped as soon as the card is measured, so the real bounds take over.
 */
const ESTIMATED_HANDLES: NodeHandle[] = [
  { type: 'target', position: Position.Left, x: -5, y: 70, width: 10, height: 10 },
  { type: 'source', position: Position.Right, x: 295, y: 70, width: 10, height: 10 },
];

/** Removes estimated handles from cards React Flow has measured. */
export function dropEstimatedHandles(node: FlowNode): FlowNode {
  if (!node.measured?.width || !node.handles) return node;
  const { handles: _estimated, ...measured } = node;
  return measured;
}

/**
 * Builds React Flow nodes from graph records (all of them, or a large canvas's window: `flow-window.ts`), reusing the previous object when neither the record
 * nor the selection changed, so React Flow re-renders only the nodes that moved or changed.
 */
export function syncFlowNodes(
  previous: readonly FlowNode[],
  records: Iterable<CanvasNode>,
  selected: ReadonlySet<string>,
  sources: WeakMap<FlowNode, CanvasNode>,
): FlowNode[] {
  const previousById = new Map(previous.map((node) => [node.id, node] as const));
  const next: FlowNode[] = [];
  for (const record of records) {
    const before = previousById.get(record.id);
    const isSelected = selected.has(record.id);
    if (before && sources.get(before) === record && (before.selected ?? false) === isSelected) {
      next.push(before);
      continue;
    }
    const node: FlowNode = {
      ...(before ?? {}),
      id: record.id,
      type: record.kind,
      position: before?.dragging ? before.position : record.position,
      data: before?.data ?? { nodeId: record.id },
      selected: isSelected,
      // An estimated size lets React Flow cull off-screen cards before their first measurement;
      // without it every node renders once just to be measured (seconds on a 2,000-node canvas).
      initialWidth: 300,
      initialHeight: 150,
    };
    if (before?.measured?.width) delete node.handles;
    else node.handles = record.kind === 'frame' ? [] : ESTIMATED_HANDLES;
    if (record.kind === 'frame') {
      const size = record.size ?? FRAME_DEFAULT;
      node.style = { width: size.width, height: size.height };
      node.zIndex = -1;
      node.width = size.width;
      node.height = size.height;
    }
    sources.set(node, record);
    next.push(node);
  }
  return next;
}

/** Every wire ends in an arrowhead at the node it feeds, so which way context flows reads at a glance. */
export const WIRE_ARROW: EdgeMarker = { type: MarkerType.ArrowClosed, width: 18, height: 18, color: '#8a93a6' };

export function syncFlowEdges(
  previous: readonly FlowEdge[],
  wires: Iterable<Wire>,
  selectedEdgeId: string | null,
): FlowEdge[] {
  const previousById = new Map(previous.map((edge) => [edge.id, edge] as const));
  const next: FlowEdge[] = [];
  for (const wire of wires) {
    const before = previousById.get(wire.id);
    const isSelected = wire.id === selectedEdgeId;
    if (before && before.data?.wire === wire && (before.selected ?? false) === isSelected) {
      next.push(before);
      continue;
    }
    next.push({
      id: wire.id,
      source: wire.from,
      target: wire.to,
      type: 'wire',
      data: { wire },
      selected: isSelected,
      markerEnd: WIRE_ARROW,
    });
  }
  return next;
}
