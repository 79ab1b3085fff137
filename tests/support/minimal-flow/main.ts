// The baseline `bench:ui` compares heap against: @xyflow/react holding the same nodes and edges (default nodes
// labelled with the question), culling off-screen elements like the app, nothing else. `?chains=&depth=`.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ReactFlow, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';

const parameters = new URLSearchParams(location.search);
const chains = Number(parameters.get('chains') ?? 40);
const depth = Number(parameters.get('depth') ?? 50);
const nodes: Node[] = [];
const edges: Edge[] = [];
for (let column = 0; column < chains; column += 1)
  for (let row = 0; row < depth; row += 1) {
    const id = `${column}-${row}`;
    nodes.push({ id, position: { x: column * 340, y: row * 210 }, data: { label: `Question ${column}.${row}` } });
    if (row > 0) edges.push({ id: `e${id}`, source: `${column}-${row - 1}`, target: id });
  }
createRoot(document.getElementById('root')!).render(
  createElement(ReactFlow, { nodes, edges, onlyRenderVisibleElements: true, minZoom: 0.05 }),
);
