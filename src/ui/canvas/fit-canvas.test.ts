import { describe, expect, it } from 'vitest';
import { fittedViewport, MINIMAP_ROOM, CONTROLS_ROOM } from './fit-canvas.ts';
import { MINIMAP_SIZE } from './CanvasMinimap.tsx';

const PANE = { width: 1000, height: 800, minZoom: 0.05 };

/** Where a flow-coordinate box lands on the pane under `viewport`. */
function onScreen(box: { x: number; y: number; width: number; height: number }, viewport = fittedViewport(box, PANE)!) {
  return {
    left: box.x * viewport.zoom + viewport.x,
    right: (box.x + box.width) * viewport.zoom + viewport.x,
    top: box.y * viewport.zoom + viewport.y,
    bottom: (box.y + box.height) * viewport.zoom + viewport.y,
  };
}

describe('fittedViewport', () => {
  it('leaves the minimap and the zoom controls clear of every card, wide or tall', () => {
    for (const bounds of [
      { x: 0, y: 0, width: 6000, height: 900 },
      { x: -300, y: 40, width: 900, height: 5000 },
      { x: 0, y: 0, width: 2400, height: 1900 },
    ]) {
      const cards = onScreen(bounds);
      // The minimap: its frame's box at the bottom right, 14 px in.
      const minimapLeft = PANE.width - 14 - MINIMAP_SIZE.width - 12;
      const minimapTop = PANE.height - 14 - MINIMAP_SIZE.height - 12;
      const underMinimap = cards.right > minimapLeft && cards.bottom > minimapTop;
      expect(underMinimap, JSON.stringify(cards)).toBe(false);
      // The zoom controls: about 40 px wide at the bottom left.
      expect(cards.left >= 40 || cards.bottom <= PANE.height - 110, JSON.stringify(cards)).toBe(true);
    }
    expect(MINIMAP_ROOM).toBeGreaterThan(MINIMAP_SIZE.width);
    expect(CONTROLS_ROOM).toBeGreaterThanOrEqual(40);
  });

  it('still shows one card at its real size', () => {
    expect(fittedViewport({ x: 0, y: 0, width: 300, height: 150 }, PANE)!.zoom).toBe(1);
  });
});
