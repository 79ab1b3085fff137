import { useEffect, useRef } from 'react';
import { useStore, useViewport } from '@xyflow/react';
import { useWeft } from '../kit/index.ts';

const CARD = { width: 300, height: 150 };
const COLORS: Record<string, string> = {
  question: '#8f96e8',
  note: '#e0c667',
  material: '#6cc2b6',
  mirror: '#a9aebb',
  frame: 'rgba(120,130,150,0.12)',
};

/**
 * A large canvas zoomed out to dots: every card is a rectangle on one <canvas> at the viewport's transform, so
 * fitting 20,000 cards draws one bitmap instead of mounting 20,000 React Flow nodes and their wires.
 */
export function CanvasDots() {
  const records = useWeft((state) => state.graph?.nodes);
  const shown = useWeft((state) => state.shown);
  const { x, y, zoom } = useViewport();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context || !records) return;
    const ratio = window.devicePixelRatio || 1;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    for (const node of records.values()) {
      const left = node.position.x * zoom + x;
      const top = node.position.y * zoom + y;
      const size = node.kind === 'frame' ? (node.size ?? CARD) : CARD;
      if (left > width || top > height || left + size.width * zoom < 0 || top + size.height * zoom < 0) continue;
      context.globalAlpha = node.archived ? 0.35 : 1;
      context.fillStyle = shown.has(node.id) ? '#f0a93b' : (COLORS[node.kind] ?? '#a9aebb');
      context.fillRect(left, top, Math.max(1, size.width * zoom), Math.max(1, size.height * zoom));
    }
  }, [records, shown, x, y, zoom, width, height]);

  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  return (
    <canvas
      ref={canvas}
      className="canvas-dots"
      data-testid="canvas-dots"
      width={width * ratio}
      height={height * ratio}
      style={{ width, height, position: 'absolute', inset: 0, pointerEvents: 'none', zIndex: 1 }}
      aria-label="Zoomed out: every card as a dot"
    />
  );
}
