import { CARD_SIZE as CARD, type Box } from '../../core/index.ts';

export { placeBeside, type Box } from '../../core/index.ts';
interface Placed {
  id: string;
  type?: string;
  position: { x: number; y: number };
  measured?: { width?: number; height?: number };
}

/** The boxes of the drawn cards (frames hold cards, so they never block a spot). */
export function flowBoxes(nodes: readonly Placed[]): Box[] {
  return nodes
    .filter((node) => node.type !== 'frame')
    .map((node) => ({
      x: node.position.x,
      y: node.position.y,
      width: node.measured?.width ?? CARD.width,
      height: node.measured?.height ?? CARD.height,
    }));
}

/** The one selected (else focused) node a new card is placed beside; none when several or none are selected. */
export function selectedAnchor(
  state: { selectedNodeIds: readonly string[]; focusedNodeId: string | null },
  nodes: readonly Placed[],
): Box | null {
  const ids = state.selectedNodeIds.length ? state.selectedNodeIds : state.focusedNodeId ? [state.focusedNodeId] : [];
  if (ids.length !== 1) return null;
  const node = nodes.find((candidate) => candidate.id === ids[0]);
  return node ? (flowBoxes([{ ...node, type: undefined }])[0] ?? null) : null;
}
