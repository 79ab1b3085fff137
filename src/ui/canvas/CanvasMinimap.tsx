import { useEffect, useMemo, useRef } from 'react';
import { useReactFlow, useStore, useViewport } from '@xyflow/react';
import { useWeft } from '../kit/index.ts';

const WIDTH = 200;
const HEIGHT = 140;
/** The minimap's drawing size; fitted views keep clear of it (fit-canvas.ts). */
export const MINIMAP_SIZE = { width: WIDTH, height: HEIGHT } as const;
const CARD = { width: 300, height: 150 };
const COLORS: Record<string, string> = {
  question: '#c7cbf7',
  note: '#f1e3b0',
  material: '#b9e3dd',
  mirror: '#d9dce3',
  frame: 'rgba(120,130,150,0.12)',
};

/**
 * A minimap drawn on one <canvas>: one rectangle per node from the graph records. React Flow's
 * own minimap mounts a component per node, which costs seconds on a 2,000-node canvas.
 */
export function CanvasMinimap() {
  const records = useWeft((state) => state.graph?.nodes);
  const { x, y, zoom } = useViewport();
  const paneWidth = useStore((state) => state.width);
  const paneHeight = useStore((state) => state.height);
  const flow = useReactFlow();
  const canvas = useRef<HTMLCanvasElement>(null);

  const bounds = useMemo(() => {
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (const node of records?.values() ?? []) {
      const width = node.size?.width ?? CARD.width;
      const height = node.size?.height ?? CARD.height;
      minX = Math.min(minX, node.position.x);
      minY = Math.min(minY, node.position.y);
      maxX = Math.max(maxX, node.position.x + width);
      maxY = Math.max(maxY, node.position.y + height);
    }
    if (!Number.isFinite(minX)) return null;
    return { minX, minY, maxX, maxY };
  }, [records]);

  // The map spans the nodes and the visible part together, so the view rectangle is always whole on it.
  const layout = useMemo(() => {
    if (!bounds || paneWidth <= 0 || paneHeight <= 0) return null;
    const pad = 80;
    const minX = Math.min(bounds.minX, -x / zoom) - pad;
    const minY = Math.min(bounds.minY, -y / zoom) - pad;
    const maxX = Math.max(bounds.maxX, (paneWidth - x) / zoom) + pad;
    const maxY = Math.max(bounds.maxY, (paneHeight - y) / zoom) + pad;
    const scale = Math.min(WIDTH / (maxX - minX), HEIGHT / (maxY - minY));
    return {
      minX,
      minY,
      scale,
      offsetX: (WIDTH - (maxX - minX) * scale) / 2,
      offsetY: (HEIGHT - (maxY - minY) * scale) / 2,
    };
  }, [bounds, x, y, zoom, paneWidth, paneHeight]);

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    const ratio = window.devicePixelRatio || 1;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    // Cleared before anything else: an empty canvas has no layout, and must not keep the last one's drawing.
    context.clearRect(0, 0, WIDTH, HEIGHT);
    if (!layout || !records) return;
    const toX = (value: number) => layout.offsetX + (value - layout.minX) * layout.scale;
    const toY = (value: number) => layout.offsetY + (value - layout.minY) * layout.scale;
    for (const node of records.values()) {
      context.globalAlpha = node.archived ? 0.35 : 1;
      context.fillStyle = COLORS[node.kind] ?? '#d9dce3';
      const width = (node.size?.width ?? CARD.width) * layout.scale;
      const height = (node.size?.height ?? CARD.height) * layout.scale;
      context.fillRect(toX(node.position.x), toY(node.position.y), Math.max(1, width), Math.max(1, height));
    }
    context.globalAlpha = 1;
    // The visible part of the canvas.
    context.strokeStyle = '#4f46e5';
    context.lineWidth = 1.5;
    context.strokeRect(
      toX(-x / zoom),
      toY(-y / zoom),
      (paneWidth / zoom) * layout.scale,
      (paneHeight / zoom) * layout.scale,
    );
  }, [records, layout, x, y, zoom, paneWidth, paneHeight]);

  const panTo = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (!layout || (event.type === 'pointermove' && event.buttons !== 1)) return;
    const box = event.currentTarget.getBoundingClientRect();
    const flowX = (event.clientX - box.left - layout.offsetX) / layout.scale + layout.minX;
    const flowY = (event.clientY - box.top - layout.offsetY) / layout.scale + layout.minY;
    void flow.setCenter(flowX, flowY, { zoom });
  };

  return (
    <div className="minimap" data-testid="minimap">
      <canvas
        ref={canvas}
        width={WIDTH * (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1)}
        height={HEIGHT * (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1)}
        style={{ width: WIDTH, height: HEIGHT }}
        onPointerDown={panTo}
        onPointerMove={panTo}
        aria-label="Minimap: click or drag to move the view"
      />
    </div>
  );
}
