// src/ui/canvas: the React Flow canvas, node cards, wires, search and minimap.
export { CanvasView } from './CanvasView.tsx';
export { nodeTypes, edgeTypes } from './node-types.ts';
export { Markdown } from './Markdown.tsx';
export { syncFlowNodes, syncFlowEdges } from './flow-elements.ts';
export type { FlowNode, FlowEdge, FlowNodeData } from './flow-elements.ts';
export { QuestionAuthorHint } from './QuestionAuthorBadge.tsx';
