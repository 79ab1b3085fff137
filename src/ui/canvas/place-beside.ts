export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const CARD = { width: 300, height: 170 };
const GAP = { x: 60, y: 30 };

function overlaps(a: Box, b: Box): boolean {
  return (
    a.x < b.x + b.width + GAP.x / 2 &&
    a.x + a.width + GAP.x / 2 > b.x &&
    a.y < b.y + b.height + GAP.y &&
    a.y + a.height + GAP.y > b.y
  );
}

/**
 * Where a new card goes when a node is selected: to its right, level with it, else the next free row down that
 * column, else below it. The new card appears next to what the person is working on, so the view needs no jump.
 */
export function placeBeside(anchor: Box, others: readonly Box[]): { x: number; y: number } {
  const column = anchor.x + anchor.width + GAP.x;
  const free = (x: number, y: number) => !others.some((other) => overlaps({ x, y, ...CARD }, other));
  for (let row = 0; row < 10; row += 1) {
    const y = anchor.y + row * (CARD.height + GAP.y);
    if (free(column, y)) return { x: Math.round(column), y: Math.round(y) };
  }
  for (let row = 1; row < 10; row += 1) {
    const y = anchor.y + anchor.height + GAP.y + (row - 1) * (CARD.height + GAP.y);
    if (free(anchor.x, y)) return { x: Math.round(anchor.x), y: Math.round(y) };
  }
  return { x: Math.round(column), y: Math.round(anchor.y) };
}

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
