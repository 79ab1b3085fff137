import type { CanvasNode, Wire } from '../../../protocol/index.ts';

/** A rectangle in flow coordinates. */
export interface FlowRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The pan and zoom (React Flow's transform) and the pane's size in screen pixels. */
export interface ViewState {
  x: number;
  y: number;
  zoom: number;
  width: number;
  height: number;
}

/** The margin around the view handed to React Flow, in views: pans of up to half a screen need no new window. */
const MARGIN = 0.75;
/** How near the window's edge the view may come before a new window is cut (in views). */
const SLACK = 0.25;
/** What a card is taken to measure where its record has no size (the size the flow nodes declare). */
const CARD_ESTIMATE = { width: 300, height: 150 };

/** The part of the canvas the pane shows, in flow coordinates; null while the pane has no size. */
function viewRect(view: ViewState): FlowRect | null {
  if (view.width <= 0 || view.height <= 0 || view.zoom <= 0) return null;
  const left = -view.x / view.zoom;
  const top = -view.y / view.zoom;
  return { left, top, right: left + view.width / view.zoom, bottom: top + view.height / view.zoom };
}

function grown(rect: FlowRect, share: number): FlowRect {
  const dx = (rect.right - rect.left) * share;
  const dy = (rect.bottom - rect.top) * share;
  return { left: rect.left - dx, top: rect.top - dy, right: rect.right + dx, bottom: rect.bottom + dy };
}

function contains(outer: FlowRect, inner: FlowRect): boolean {
  return (
    inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right && inner.bottom <= outer.bottom
  );
}

/**
 * The window of the canvas React Flow is handed for this view: `current` while the view (with some slack) is still
 * inside it, else the view grown by a margin on every side, so a pan brings in cards React Flow already holds (no
 * flash) and most frames of a pan cut no new window. Null while the pane has no size.
 */
export function nextFlowWindow(current: FlowRect | null, view: ViewState): FlowRect | null {
  const shown = viewRect(view);
  if (!shown) return current;
  if (current && contains(current, grown(shown, SLACK))) {
    // Zoomed far in since it was cut: a window of many views holds more cards than the view needs.
    const area = (rect: FlowRect) => (rect.right - rect.left) * (rect.bottom - rect.top);
    if (area(current) <= area(grown(shown, MARGIN)) * 4) return current;
  }
  return grown(shown, MARGIN);
}

function boxOf(node: CanvasNode): FlowRect {
  const size = node.size ?? CARD_ESTIMATE;
  return {
    left: node.position.x,
    top: node.position.y,
    right: node.position.x + size.width,
    bottom: node.position.y + size.height,
  };
}

const meets = (a: FlowRect, b: FlowRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * The nodes and wires React Flow is handed for `window`: the cards in it; every wire that may cross it (the box of
 * its two ends meets the window) with both its ends, so a wire to a card far off screen is still drawn; and the
 * `kept` nodes wherever they are (selected, focused: what selection, the panel and placing beside need). The rest
 * stay in the store. Records in their map order, so React Flow's order (and z-order) is the canvas's.
 */
export function windowedElements(
  nodes: ReadonlyMap<string, CanvasNode>,
  wires: ReadonlyMap<string, Wire>,
  window: FlowRect,
  kept: Iterable<string>,
): { nodes: CanvasNode[]; wires: Wire[] } {
  const ids = new Set<string>();
  for (const id of kept) ids.add(id);
  const shownWires: Wire[] = [];
  for (const wire of wires.values()) {
    const from = nodes.get(wire.from);
    const to = nodes.get(wire.to);
    if (!from || !to) continue;
    const span = {
      left: Math.min(from.position.x, to.position.x),
      top: Math.min(from.position.y, to.position.y),
      right: Math.max(boxOf(from).right, boxOf(to).right),
      bottom: Math.max(boxOf(from).bottom, boxOf(to).bottom),
    };
    if (!meets(span, window)) continue;
    shownWires.push(wire);
    ids.add(wire.from);
    ids.add(wire.to);
  }
  const shownNodes: CanvasNode[] = [];
  for (const node of nodes.values()) if (ids.has(node.id) || meets(boxOf(node), window)) shownNodes.push(node);
  return { nodes: shownNodes, wires: shownWires };
}
