import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ControlButton,
  Background,
  BackgroundVariant,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  applyNodeChanges,
  useReactFlow,
  useStore,
  useStoreApi,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { CanvasNode } from '../../../protocol/index.ts';
import type { GraphChange } from '../../core/index.ts';
import { useWeft, useWeftStore, countRender } from '../kit/index.ts';
import { canvasBridge } from '../commands/index.ts';
import { CanvasContextMenu, useContextMenuHandlers } from './CanvasContextMenu.tsx';
import { CanvasMinimap } from './CanvasMinimap.tsx';
import { EmptyCanvasHint } from './EmptyCanvasHint.tsx';
import { CanvasDots } from './CanvasDots.tsx';
import { MapZoomScale } from './MapZoomScale.tsx';
import { DOT_BELOW_ZOOM, useDetailLevel } from './detail-level.ts';
import { CanvasSearch } from './CanvasSearch.tsx';
import { CanvasToolbar } from './CanvasToolbar.tsx';
import { canvasBounds, fittedViewport } from './fit-canvas.ts';
import { dropEstimatedHandles, syncFlowEdges, syncFlowNodes, type FlowEdge, type FlowNode } from './flow-elements.ts';
import { edgeTypes, nodeTypes } from './node-types.ts';
import { nextFlowWindow, windowedElements, type FlowRect } from './flow-window.ts';
import { ANSWERED_CARD, flowBoxes, placeBeside, selectedAnchor } from './place-beside.ts';

const LARGE_CANVAS = 300;
const NO_NODES: FlowNode[] = [];
const NO_EDGES: FlowEdge[] = [];
// A new card is planned at its answered size (place-beside.ts), so its answer arriving overlaps nothing.
const CARD = { ...ANSWERED_CARD, gapX: 40, gapY: 30 };

type Placed = Parameters<typeof flowBoxes>[0][number];
type Size = { width: number; height: number };

/** The first spot near `start` (below, then to the right) where a new card overlaps no other card. */
function freeSpot(nodes: readonly Placed[], start: { x: number; y: number }): { x: number; y: number } {
  const boxes = flowBoxes(nodes);
  const overlaps = (x: number, y: number) =>
    boxes.some(
      (box) =>
        x < box.x + box.width + CARD.gapX &&
        x + CARD.width + CARD.gapX > box.x &&
        y < box.y + box.height + CARD.gapY &&
        y + CARD.height + CARD.gapY > box.y,
    );
  for (let ring = 0; ring < 12; ring += 1) {
    for (let column = 0; column <= ring; column += 1) {
      const x = start.x + column * (CARD.width + CARD.gapX);
      const y = start.y + (ring - column) * (CARD.height + CARD.gapY);
      if (!overlaps(x, y)) return { x, y };
    }
  }
  return start;
}

function CanvasFlow({ onOpenMaterial }: { onOpenMaterial: () => void }) {
  countRender('canvas');
  const store = useWeftStore();
  const records = useWeft((state) => state.graph?.nodes);
  const wires = useWeft((state) => state.graph?.wires);
  const selectedIds = useWeft((state) => state.selectedNodeIds);
  const focusedId = useWeft((state) => state.focusedNodeId);
  const canvasId = useWeft((state) => state.activeCanvasId);
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const sources = useRef(new WeakMap<FlowNode, CanvasNode>());
  const [selectedEdgeId, setSelectedEdgeId] = useState<string | null>(null);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const flowStore = useStoreApi<FlowNode, FlowEdge>();
  // A large canvas hands React Flow only the cards in and near the view (`flow-window.ts`); the rest stay in the
  // store. React Flow's first pass over every node (and its copy of each) cost more than the minimal page's.
  const large = (records?.size ?? 0) > LARGE_CANVAS;
  const windowRef = useRef<FlowRect | null>(null);
  const [flowWindow, setFlowWindow] = useState<FlowRect | null>(null);
  useEffect(() => {
    const follow = () => {
      const { transform, width, height } = flowStore.getState();
      const next = nextFlowWindow(windowRef.current, {
        x: transform[0],
        y: transform[1],
        zoom: transform[2],
        width,
        height,
      });
      if (next !== windowRef.current) setFlowWindow((windowRef.current = next));
    };
    follow();
    return flowStore.subscribe(follow);
  }, [flowStore]);
  // A fit to the dot level waiting for React Flow to have dropped its nodes.
  const [dotsAhead, setDotsAhead] = useState<Viewport | null>(null);
  // A large canvas zoomed out to dots is drawn on one <canvas>; React Flow then holds no nodes to lay out, and none
  // are built for it (at the fitted zoom the window is the whole canvas: ~2 MB of flow nodes at 10,000 cards).
  const detail = useDetailLevel();
  const dots = (detail === 'dot' || dotsAhead !== null) && large;
  const windowed = useMemo(() => {
    if (!large || !records || !wires) return null;
    if (!flowWindow || dots) return { nodes: [], wires: [] };
    return windowedElements(records, wires, flowWindow, focusedId ? [...selectedIds, focusedId] : selectedIds);
  }, [large, records, wires, flowWindow, dots, selectedIds, focusedId]);
  // Built during the first render, so the canvas does not render once empty and then again full.
  const [nodes, setNodes] = useState<FlowNode[]>(() =>
    records ? syncFlowNodes([], windowed?.nodes ?? records.values(), selected, sources.current) : [],
  );

  // Leaving the dot level (no flow nodes held there): the window's are built in this render, so no frame shows
  // neither the dots nor the cards.
  if (!dots && nodes.length === 0 && windowed && windowed.nodes.length > 0)
    setNodes(syncFlowNodes([], windowed.nodes, selected, sources.current));
  useEffect(() => {
    if (records)
      setNodes((previous) => syncFlowNodes(previous, windowed?.nodes ?? records.values(), selected, sources.current));
  }, [records, windowed, selected]);
  const edgesRef = useRef<FlowEdge[]>([]);
  const edges = useMemo(
    () =>
      (edgesRef.current = wires
        ? syncFlowEdges(edgesRef.current, windowed?.wires ?? wires.values(), selectedEdgeId)
        : []),
    [wires, windowed, selectedEdgeId],
  );
  // Sizes React Flow measured, kept when a card leaves the window (fits, auto-layout and placing read them).
  const measuredSizes = useRef(new Map<string, Size>());
  const measuredOf = useCallback(
    (nodeId: string): Size | undefined => {
      const measured = flow.getInternalNode(nodeId)?.measured;
      if (measured?.width && measured.height) return { width: measured.width, height: measured.height };
      return measuredSizes.current.get(nodeId);
    },
    [flow],
  );

  useEffect(() => {
    // Children's effects run first: React Flow's store already holds no nodes here.
    if (!dotsAhead) return;
    void flow.setViewport(dotsAhead, { duration: 0 });
    setDotsAhead(null);
  }, [dotsAhead, flow]);
  // Fits every card, drawn or not, from the records (see fit-canvas.ts for why not React Flow's fitView).
  const fitAll = useCallback(
    (duration: number, only?: readonly string[]) => {
      const { width, height, minZoom } = flowStore.getState();
      const nodes = store.getState().graph?.nodes;
      const records = only
        ? only.flatMap((nodeId) => {
            const record = nodes?.get(nodeId);
            return record ? [record] : [];
          })
        : (nodes?.values() ?? []);
      const bounds = canvasBounds(records, measuredOf);
      const viewport = fittedViewport(bounds, { width, height, minZoom });
      if (!viewport) return;
      // A large canvas fitted to dots first hands React Flow no nodes, then jumps there (the effect below): at the
      // new zoom every card is in view, and React Flow would mount them all for the one frame before our dots
      // switch reaches its store (bench:ui fit_worst_frame grew with the canvas).
      if ((nodes?.size ?? 0) > LARGE_CANVAS && viewport.zoom < DOT_BELOW_ZOOM) setDotsAhead(viewport);
      else void flow.setViewport(viewport, { duration });
    },
    [flow, flowStore, store, measuredOf],
  );

  // Once per opened canvas, as soon as the pane has a size: the new canvas's cards, never the old pan and zoom.
  const paneWidth = useStore((state) => state.width);
  const paneHeight = useStore((state) => state.height);
  const fittedFor = useRef<string | null>(null);
  const resetFor = useRef<string | null>(null);
  // The canvas whose opening view is in place: a large one hands React Flow no cards before it, or the first frame
  // would mount and lay out the cards at the origin only to swap them for those around the newest node.
  const [placedFor, setPlacedFor] = useState<string | null>(null);
  useEffect(() => {
    if (!canvasId || !records || fittedFor.current === canvasId || paneWidth <= 0 || paneHeight <= 0) return;
    if (records.size === 0) {
      // An empty canvas starts at the origin at full size; its first card is fitted when it comes.
      if (resetFor.current !== canvasId) requestAnimationFrame(() => void flow.setViewport({ x: 0, y: 0, zoom: 1 }));
      resetFor.current = canvasId;
      return;
    }
    fittedFor.current = canvasId;
    if (records.size > LARGE_CANVAS) {
      // A large canvas opens on its newest node at a readable zoom, not as 2,000 specks.
      const newest = [...records.values()].reduce((latest, node) =>
        node.createdAt >= latest.createdAt ? node : latest,
      );
      requestAnimationFrame(() => {
        void flow.setCenter(newest.position.x + CARD.width / 2, newest.position.y + CARD.height / 2, { zoom: 0.8 });
        setPlacedFor(canvasId);
      });
    } else {
      setPlacedFor(canvasId);
      requestAnimationFrame(() => fitAll(0));
    }
  }, [canvasId, records, paneWidth, paneHeight, flow, fitAll]);

  useEffect(() => {
    canvasBridge.fitView = () => fitAll(200);
    canvasBridge.zoomToNodes = (nodeIds) => fitAll(200, nodeIds);
    // From the record: a card outside the window is not in React Flow.
    canvasBridge.centerOn = (nodeId) => {
      const node = store.getState().graph?.nodes.get(nodeId);
      if (node)
        void flow.setCenter(node.position.x + 150, node.position.y + 80, {
          zoom: Math.max(flow.getZoom(), 0.8),
          duration: 250,
        });
    };
    // After the next frame, so the bounds are those left once the node panel has opened.
    canvasBridge.ensureVisible = (nodeId) =>
      requestAnimationFrame(() => {
        const record = store.getState().graph?.nodes.get(nodeId);
        const bounds = document.querySelector('.canvas-area')?.getBoundingClientRect();
        if (!record || !bounds) return;
        const topLeft = flow.flowToScreenPosition(record.position);
        const bottomRight = flow.flowToScreenPosition({
          x: record.position.x + CARD.width,
          y: record.position.y + CARD.height,
        });
        const inside =
          topLeft.x >= bounds.left &&
          topLeft.y >= bounds.top + 50 &&
          bottomRight.x <= bounds.right &&
          bottomRight.y <= bounds.bottom;
        if (!inside)
          void flow.setCenter(record.position.x + CARD.width / 2, record.position.y + CARD.height / 2, {
            zoom: flow.getZoom(),
            duration: 0,
          });
      });
    canvasBridge.newNodePosition = () => {
      // Every card, drawn or not: a new one never lands on a card outside the window.
      const placed: Placed[] = [...(store.getState().graph?.nodes.values() ?? [])].map((record) => ({
        id: record.id,
        type: record.kind,
        position: record.position,
        measured: measuredOf(record.id) ?? record.size ?? undefined,
      }));
      const anchor = selectedAnchor(store.getState(), placed);
      if (anchor) return placeBeside(anchor, flowBoxes(placed), ANSWERED_CARD);
      const bounds = document.querySelector('.canvas-area')?.getBoundingClientRect();
      const centre = flow.screenToFlowPosition({
        x: (bounds?.left ?? 0) + (bounds?.width ?? 800) / 2,
        y: (bounds?.top ?? 0) + (bounds?.height ?? 600) / 3,
      });
      return freeSpot(placed, { x: Math.round(centre.x - 150), y: Math.round(centre.y - 60) });
    };
    canvasBridge.openMaterialDialog = onOpenMaterial;
    canvasBridge.measuredSize = measuredOf;
  }, [flow, store, onOpenMaterial, fitAll, measuredOf]);

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      const state = store.getState();
      let selection: Set<string> | null = null;
      const moves: GraphChange[] = [];
      for (const change of changes) {
        if (change.type === 'select') {
          selection ??= new Set(state.selectedNodeIds);
          if (change.selected) selection.add(change.id);
          else selection.delete(change.id);
        } else if (change.type === 'dimensions' && change.dimensions?.width && change.dimensions.height) {
          measuredSizes.current.set(change.id, { width: change.dimensions.width, height: change.dimensions.height });
        } else if (change.type === 'position' && change.dragging === false && change.position) {
          moves.push({
            type: 'move-node',
            nodeId: change.id,
            position: { x: Math.round(change.position.x), y: Math.round(change.position.y) },
          });
        }
      }
      setNodes((previous) => {
        const next = applyNodeChanges(
          changes.filter((change) => change.type !== 'remove'),
          previous,
        ).map(dropEstimatedHandles);
        const before = new Map(previous.map((node) => [node.id, node] as const));
        for (const node of next) {
          const old = before.get(node.id);
          const record = old ? sources.current.get(old) : undefined;
          if (record && node !== old) sources.current.set(node, record);
        }
        return next;
      });
      if (selection) state.setSelection([...selection]);
      if (moves.length === 1) state.apply(moves[0]!);
      else if (moves.length > 1) state.apply({ type: 'batch', changes: moves });
    },
    [store],
  );

  const onEdgesChange = useCallback((changes: EdgeChange<FlowEdge>[]) => {
    for (const change of changes) {
      if (change.type === 'select')
        setSelectedEdgeId((current) => (change.selected ? change.id : current === change.id ? null : current));
    }
  }, []);

  const menuHandlers = useContextMenuHandlers();

  const onConnect = useCallback(
    (connection: Connection) => {
      if (connection.source && connection.target)
        store.getState().apply({ type: 'wire', from: connection.source, to: connection.target, kind: 'solid' });
    },
    [store],
  );

  const unplaced = large && placedFor !== canvasId;

  return (
    <ReactFlow<FlowNode, FlowEdge>
      nodes={dots || unplaced ? NO_NODES : nodes}
      edges={dots || unplaced ? NO_EDGES : edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      {...menuHandlers}
      onNodeClick={(_, node) => store.getState().focusNode(node.id)}
      onPaneClick={() => {
        store.getState().focusNode(null);
        setSelectedEdgeId(null);
      }}
      deleteKeyCode={null}
      selectionKeyCode="Shift"
      multiSelectionKeyCode={['Meta', 'Control']}
      onlyRenderVisibleElements
      minZoom={0.05}
      maxZoom={2}
      defaultEdgeOptions={{ type: 'wire' }}
      proOptions={{ hideAttribution: true }}
    >
      <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} color="#d3d7df" />
      {dots && <CanvasDots />}
      <CanvasMinimap />
      <MapZoomScale />
      {/* React Flow's own fit button waits for every card to be measured; off-screen cards never are. */}
      <Controls showInteractive={false} showFitView={false}>
        <ControlButton onClick={() => fitAll(200)} title="Fit view" aria-label="Fit view" data-testid="fit-view">
          ⤢
        </ControlButton>
      </Controls>
    </ReactFlow>
  );
}

export function CanvasView({ onOpenMaterial }: { onOpenMaterial: () => void }) {
  return (
    <div className="canvas-area" data-testid="canvas">
      <ReactFlowProvider>
        <CanvasToolbar />
        <CanvasSearch />
        <CanvasFlow onOpenMaterial={onOpenMaterial} />
        <EmptyCanvasHint />
        <CanvasContextMenu />
      </ReactFlowProvider>
    </div>
  );
}
