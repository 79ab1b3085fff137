// src/ui/canvas: the React Flow canvas, node cards, wires, search and minimap.
export { CanvasView } from './CanvasView.tsx';
export { nodeTypes, edgeTypes } from './node-types.ts';
export { Markdown } from './Markdown.tsx';
export { nodeTitle, nodeSearchText, shortModel, isReceiptModel, formatTime } from './node-labels.ts';
export { syncFlowNodes, syncFlowEdges } from './flow-elements.ts';
export type { FlowNode, FlowEdge, FlowNodeData } from './flow-elements.ts';
