import type { Size } from './changes.ts';
import type { Graph } from './graph.ts';
import { isLive } from './live.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The size a card is drawn at before it has been measured or resized. */
export const CARD_SIZE: Size = { width: 300, height: 170 };
const GAP = { x: 60, y: 30 };
/** How many rows a planned spot is stepped before Weft gives up and accepts an overlap. */
const STEPS = 40;

function overlaps(a: Box, b: Box): boolean {
  return (
    a.x < b.x + b.width + GAP.x / 2 &&
    a.x + a.width + GAP.x / 2 > b.x &&
    a.y < b.y + b.height + GAP.y &&
    a.y + a.height + GAP.y > b.y
  );
}

/**
 * Where a new card goes beside an anchor: to its right, level with it, else the next free row down that
 * column, else below it. The new card appears next to what the person is working on, so the view needs no jump.
 */
export function placeBeside(anchor: Box, others: readonly Box[], size: Size = CARD_SIZE): { x: number; y: number } {
  const column = anchor.x + anchor.width + GAP.x;
  const free = (x: number, y: number) => !others.some((other) => overlaps({ x, y, ...size }, other));
  for (let row = 0; row < 10; row += 1) {
    const y = anchor.y + row * (size.height + GAP.y);
    if (free(column, y)) return { x: Math.round(column), y: Math.round(y) };
  }
  for (let row = 1; row < 10; row += 1) {
    const y = anchor.y + anchor.height + GAP.y + (row - 1) * (size.height + GAP.y);
    if (free(anchor.x, y)) return { x: Math.round(anchor.x), y: Math.round(y) };
  }
  return { x: Math.round(column), y: Math.round(anchor.y) };
}

/** The boxes of a canvas's live cards (frames hold cards, so they never block a spot). */
export function graphBoxes(graph: Graph): Box[] {
  return [...graph.nodes.values()]
    .filter((node) => isLive(node) && node.kind !== 'frame')
    .map((node) => ({
      ...node.position,
      width: node.size?.width ?? CARD_SIZE.width,
      height: node.size?.height ?? CARD_SIZE.height,
    }));
}

/**
 * The first free spot from a planned one, stepping a row at a time (`down`, or `up` for a card placed above),
 * so a helper's card never lands on one already there. Add each placed card to `others` before the next.
 */
export function freeFrom(
  planned: { x: number; y: number },
  others: readonly Box[],
  size: Size = CARD_SIZE,
  direction: 'down' | 'up' = 'down',
): { x: number; y: number } {
  const step = (direction === 'down' ? 1 : -1) * (size.height + GAP.y);
  for (let row = 0; row < STEPS; row += 1) {
    const spot = { x: planned.x, y: planned.y + row * step };
    if (!others.some((other) => overlaps({ ...spot, ...size }, other))) return spot;
  }
  return planned;
}

/** A free spot beside a node of the canvas (C30: a passage branch lands next to its source, never on a card). */
export function freeBeside(graph: Graph, anchorId: string, size: Size = CARD_SIZE): { x: number; y: number } | null {
  const anchor = graph.nodes.get(anchorId);
  if (!anchor) return null;
  const box = {
    ...anchor.position,
    width: anchor.size?.width ?? CARD_SIZE.width,
    height: anchor.size?.height ?? CARD_SIZE.height,
  };
  return placeBeside(box, graphBoxes(graph), size);
}
