/**
 * What the mounted canvas view lends to commands (viewport operations need the React Flow
 * instance). Functions are replaced when the canvas mounts and reset when it unmounts.
 */
export interface CanvasBridge {
  fitView(): void;
  /** Fits the view to these nodes (estimated sizes for cards not drawn yet). */
  zoomToNodes(nodeIds: readonly string[]): void;
  /** A free spot near the viewport centre for a new node. */
  newNodePosition(): { x: number; y: number };
  centerOn(nodeId: string): void;
  /** Pans (keeping the zoom) only when the node is not fully in view. */
  ensureVisible(nodeId: string): void;
  openMaterialDialog(): void;
  /** A drawn card's measured size (auto-layout); undefined for a card never drawn. */
  measuredSize(nodeId: string): { width: number; height: number } | undefined;
}

export const canvasBridge: CanvasBridge = {
  fitView: () => {},
  zoomToNodes: () => {},
  newNodePosition: () => ({ x: 0, y: 0 }),
  centerOn: () => {},
  ensureVisible: () => {},
  openMaterialDialog: () => {},
  measuredSize: () => undefined,
};
