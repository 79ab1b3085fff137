import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { useWeft } from '../app/store-context.tsx';
import type { FlowEdge } from './flow-elements.ts';

/** Solid = the full upstream turn joins the chain; dashed = a quoted reference block (C2). */
export const WireEdge = memo(function WireEdge(props: EdgeProps<FlowEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, data, markerEnd } = props;
  const apply = useWeft((state) => state.apply);
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const wire = data?.wire;
  const dashed = wire?.kind === 'dashed';
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={dashed ? { strokeDasharray: '6 5' } : undefined} />
      {selected && wire && (
        <EdgeLabelRenderer>
          <div className="wire-toolbar nodrag nopan" data-testid="wire-toolbar" style={{ position: 'absolute', transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
            <button aria-pressed={!dashed} onClick={() => apply({ type: 'set-wire-kind', wireId: id, kind: 'solid' })}>Solid</button>
            <button aria-pressed={dashed && wire.depth === 'quote'} onClick={() => apply({ type: 'set-wire-kind', wireId: id, kind: 'dashed', depth: 'quote' })}>Dashed · quote</button>
            <button aria-pressed={dashed && wire.depth === 'full'} onClick={() => apply({ type: 'set-wire-kind', wireId: id, kind: 'dashed', depth: 'full' })}>Dashed · full</button>
            <button onClick={() => apply({ type: 'unwire', wireId: id })} style={{ color: 'var(--danger)' }}>Remove</button>
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
