import { CARD_SIZE as CARD, type Box } from '../../core/index.ts';

export { placeBeside, type Box } from '../../core/index.ts';
interface Placed {
  id: string;
  type?: string;
  position: { x: number; y: number };
  measured?: { width?: number; height?: number };
}

/**
 * The size a question card grows to once its answer arrives (question, plaque, three lines of answer, footer): a new
 * card is placed where this fits, and a question is taken to be this tall, so no answer pushes a card onto another.
 */
export const ANSWERED_CARD = { width: CARD.width, height: 240 } as const;

/** The boxes of the drawn cards (frames hold cards, so they never block a spot); a question at its answered size. */
export function flowBoxes(nodes: readonly Placed[]): Box[] {
  return nodes
    .filter((node) => node.type !== 'frame')
    .map((node) => {
      const height = node.measured?.height ?? CARD.height;
      return {
        x: node.position.x,
        y: node.position.y,
        width: node.measured?.width ?? CARD.width,
        height: node.type === 'question' ? Math.max(height, ANSWERED_CARD.height) : height,
      };
    });
}

/** The one selected (else focused) node a new card is placed beside; none when several or none are selected. */
export function selectedAnchor(
  state: { selectedNodeIds: readonly string[]; focusedNodeId: string | null },
  nodes: readonly Placed[],
): Box | null {
  const ids = state.selectedNodeIds.length ? state.selectedNodeIds : state.focusedNodeId ? [state.focusedNodeId] : [];
  if (ids.length !== 1) return null;
  const node = nodes.find((candidate) => candidate.id === ids[0]);
  // A selected frame is an anchor too (flowBoxes skips frames as obstacles only).
  return node ? (flowBoxes([{ ...node, type: node.type === 'frame' ? undefined : node.type }])[0] ?? null) : null;
}
