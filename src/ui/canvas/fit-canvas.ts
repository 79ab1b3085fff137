import { getViewportForBounds, type Rect, type Viewport } from '@xyflow/react';
import type { CanvasNode } from '../../../protocol/index.ts';

import { MINIMAP_SIZE } from './CanvasMinimap.tsx';

/** Where the minimap (bottom right, 14 px in, with its frame) and the zoom controls (bottom left) sit over the pane. */
export const MINIMAP_ROOM = MINIMAP_SIZE.width + 14 + 26;
export const CONTROLS_ROOM = 56;

/**
 * Room at the top for the toolbar and frame labels, at the right for the minimap and at the left for the zoom
 * controls: a fitted view (and the view a canvas opens on) leaves no card under them.
 */
export const FIT_PADDING = {
  top: '88px',
  left: `${CONTROLS_ROOM}px`,
  right: `${MINIMAP_ROOM}px`,
  bottom: '40px',
} as const;
/** A fitted view never magnifies past 1: one or two cards stay at their real size. */
const FIT_MAX_ZOOM = 1;
/** What a card is taken to measure before React Flow has drawn it (the size the flow nodes declare). */
const CARD_ESTIMATE = { width: 300, height: 150 };
const FRAME_DEFAULT = { width: 520, height: 340 };

type MeasuredSize = { width?: number; height?: number } | undefined;

/**
 * The box around every card in flow coordinates: the size React Flow measured where it has drawn the card,
 * else the record's own size (frames) or the estimate. Null for an empty canvas.
 */
export function canvasBounds(records: Iterable<CanvasNode>, measured: (nodeId: string) => MeasuredSize): Rect | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const record of records) {
    const size = measured(record.id);
    const fallback = record.kind === 'frame' ? (record.size ?? FRAME_DEFAULT) : CARD_ESTIMATE;
    const width = size?.width || fallback.width;
    const height = size?.height || fallback.height;
    minX = Math.min(minX, record.position.x);
    minY = Math.min(minY, record.position.y);
    maxX = Math.max(maxX, record.position.x + width);
    maxY = Math.max(maxY, record.position.y + height);
  }
  if (!Number.isFinite(minX)) return null;
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/**
 * The viewport that shows every card, or null when there is nothing to fit or the pane has no size yet.
 * Computed from the records rather than with React Flow's `fitView`, which waits until every node has been
 * measured: cards culled off screen are never drawn, so after a canvas switch (or for cards added out of
 * sight) that wait never ended and the view kept the old pan and zoom.
 */
export function fittedViewport(
  bounds: Rect | null,
  pane: { width: number; height: number; minZoom: number },
): Viewport | null {
  if (!bounds || pane.width <= 0 || pane.height <= 0) return null;
  return getViewportForBounds(bounds, pane.width, pane.height, pane.minZoom, FIT_MAX_ZOOM, FIT_PADDING);
}
