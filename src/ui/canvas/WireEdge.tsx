import { memo } from 'react';
import {
  BaseEdge,
  EdgeLabelRenderer,
  Position,
  getBezierPath,
  useInternalNode,
  type EdgeProps,
  type InternalNode,
} from '@xyflow/react';
import { useWeft } from '../kit/index.ts';
import type { FlowEdge } from './flow-elements.ts';

/** Solid = the full upstream turn joins the chain; dashed = a quoted reference block (C2). */
export const WireEdge = memo(function WireEdge(props: EdgeProps<FlowEdge>) {
  const { id, source, target, selected, data, markerEnd } = props;
  const apply = useWeft((state) => state.apply);
  const sourceNode = useInternalNode(source);
  const targetNode = useInternalNode(target);
  const ends = sourceNode && targetNode ? floatingEnds(sourceNode, targetNode) : props;
  const [path, labelX, labelY] = getBezierPath(ends);
  const wire = data?.wire;
  const dashed = wire?.kind === 'dashed';
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={dashed ? { strokeDasharray: '6 5' } : undefined} />
      {selected && wire && (
        <EdgeLabelRenderer>
          <div
            className="wire-toolbar nodrag nopan"
            data-testid="wire-toolbar"
            style={{ position: 'absolute', transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            <button aria-pressed={!dashed} onClick={() => apply({ type: 'set-wire-kind', wireId: id, kind: 'solid' })}>
              Solid
            </button>
            <button
              aria-pressed={dashed && wire.depth === 'quote'}
              onClick={() => apply({ type: 'set-wire-kind', wireId: id, kind: 'dashed', depth: 'quote' })}
            >
              Dashed · quote
            </button>
            <button
              aria-pressed={dashed && wire.depth === 'full'}
              onClick={() => apply({ type: 'set-wire-kind', wireId: id, kind: 'dashed', depth: 'full' })}
            >
              Dashed · full
            </button>
            <button onClick={() => apply({ type: 'unwire', wireId: id })} style={{ color: 'var(--danger)' }}>
              Remove
            </button>
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});

interface Ends {
  sourceX: number;
  sourceY: number;
  targetX: number;
  targetY: number;
  sourcePosition: Position;
  targetPosition: Position;
}

/** Wires leave and enter the facing sides of two cards, so columns and rows both read cleanly. */
function floatingEnds(source: InternalNode, target: InternalNode): Ends {
  const box = (node: InternalNode) => {
    const { x, y } = node.internals.positionAbsolute;
    const width = node.measured.width ?? 300;
    const height = node.measured.height ?? 150;
    return { x, y, width, height, cx: x + width / 2, cy: y + height / 2 };
  };
  const from = box(source);
  const to = box(target);
  const horizontal =
    Math.abs(to.cx - from.cx) - (from.width + to.width) / 2 > Math.abs(to.cy - from.cy) - (from.height + to.height) / 2;
  if (horizontal) {
    const rightward = to.cx >= from.cx;
    return {
      sourceX: rightward ? from.x + from.width : from.x,
      sourceY: from.cy,
      sourcePosition: rightward ? Position.Right : Position.Left,
      targetX: rightward ? to.x : to.x + to.width,
      targetY: to.cy,
      targetPosition: rightward ? Position.Left : Position.Right,
    };
  }
  const downward = to.cy >= from.cy;
  return {
    sourceX: from.cx,
    sourceY: downward ? from.y + from.height : from.y,
    sourcePosition: downward ? Position.Bottom : Position.Top,
    targetX: to.cx,
    targetY: downward ? to.y : to.y + to.height,
    targetPosition: downward ? Position.Top : Position.Bottom,
  };
}
