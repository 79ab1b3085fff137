import { describe, expect, it } from 'vitest';
import { applyChange, graphFromDocument, jsHashPort, type Graph } from '../../core/index.ts';
import { chainCanvas } from '../../../tests/support/index.ts';
import { nextFlowWindow, windowedElements } from './flow-window.ts';

// 40 columns of 50 answered questions, 340 × 210 apart: a canvas far wider and taller than one view.
const graph: Graph = graphFromDocument(chainCanvas('w', 40, 50, { hash: jsHashPort }));
const pane = { width: 1440, height: 900 };
const idsOf = (elements: { nodes: { id: string }[] }) => new Set(elements.nodes.map((node) => node.id));

describe('nextFlowWindow (the part of a large canvas handed to React Flow)', () => {
  it('is the view with a margin on every side, and stays put while a pan keeps the view well inside it', () => {
    const view = { x: 0, y: 0, zoom: 1, ...pane };
    const window = nextFlowWindow(null, view)!;
    expect(window.left).toBeLessThan(0);
    expect(window.right).toBeGreaterThan(1440);
    expect(window.bottom).toBeGreaterThan(900);
    // Half a screen to the left: the same window, so the cards it brings in were already handed over.
    expect(nextFlowWindow(window, { ...view, x: -300 })).toBe(window);
    // Two screens on: a new window around the new view.
    const moved = nextFlowWindow(window, { ...view, x: -2880 })!;
    expect(moved).not.toBe(window);
    expect(moved.left).toBeLessThan(2880);
    expect(moved.right).toBeGreaterThan(2880 + 1440);
  });

  it('is cut again when zooming out past it or far into it, and waits while the pane has no size', () => {
    const view = { x: 0, y: 0, zoom: 1, ...pane };
    const window = nextFlowWindow(null, view)!;
    const out = nextFlowWindow(window, { ...view, zoom: 0.5 })!;
    expect(out.right - out.left).toBeGreaterThan(window.right - window.left);
    const inside = nextFlowWindow(window, { ...view, zoom: 3, x: -2100, y: -1200 })!;
    expect(inside.right - inside.left).toBeLessThan(window.right - window.left);
    expect(nextFlowWindow(null, { ...view, width: 0, height: 0 })).toBeNull();
  });
});

describe('windowedElements', () => {
  it('hands over the cards in the window and keeps the rest out', () => {
    const window = nextFlowWindow(null, { x: 0, y: 0, zoom: 1, ...pane })!;
    const shown = windowedElements(graph.nodes, graph.wires, window, []);
    const ids = idsOf(shown);
    expect(ids.has('w-0-0')).toBe(true);
    expect(ids.has('w-3-3')).toBe(true);
    expect(ids.has('w-39-49')).toBe(false);
    expect(shown.nodes.length).toBeLessThan(graph.nodes.size / 10);
    // Every card whose box meets the window is there (none missing at its edges).
    for (const node of graph.nodes.values()) {
      const meets =
        node.position.x < window.right &&
        node.position.x + 300 > window.left &&
        node.position.y < window.bottom &&
        node.position.y + 150 > window.top;
      if (meets) expect(ids.has(node.id), node.id).toBe(true);
    }
  });

  it('draws a wire to a card far off screen, and one that crosses the window with both ends outside it', () => {
    const window = nextFlowWindow(null, { x: 0, y: 0, zoom: 1, ...pane })!;
    let wired = applyChange(graph, { type: 'wire', from: 'w-0-0', to: 'w-39-49', kind: 'solid' }, context());
    if (!wired.ok) throw new Error(wired.error.message);
    // From a card above-left of the window to one below-right of it: it passes through the view.
    wired = applyChange(wired.value.graph, { type: 'wire', from: 'w-2-40', to: 'w-30-0', kind: 'solid' }, context());
    if (!wired.ok) throw new Error(wired.error.message);
    const next = wired.value.graph;
    const shown = windowedElements(next.nodes, next.wires, window, []);
    const ids = idsOf(shown);
    const ends = shown.wires.map((wire) => `${wire.from}>${wire.to}`);
    expect(ends).toContain('w-0-0>w-39-49');
    expect(ids.has('w-39-49')).toBe(true);
    expect(ends).toContain('w-2-40>w-30-0');
    expect(ids.has('w-2-40') && ids.has('w-30-0')).toBe(true);
    // Every wire handed over has both its ends handed over (React Flow draws no wire to a node it does not hold).
    for (const wire of shown.wires) expect(ids.has(wire.from) && ids.has(wire.to)).toBe(true);
  });

  it('keeps the selected and focused cards wherever they are, in the canvas order', () => {
    const window = nextFlowWindow(null, { x: 0, y: 0, zoom: 1, ...pane })!;
    const shown = windowedElements(graph.nodes, graph.wires, window, ['w-20-40', 'w-39-10']);
    const ids = idsOf(shown);
    expect(ids.has('w-20-40') && ids.has('w-39-10')).toBe(true);
    const order = [...graph.nodes.keys()].filter((id) => ids.has(id));
    expect(shown.nodes.map((node) => node.id)).toEqual(order);
  });
});

let clock = 1_800_000_000_000;
function context() {
  clock += 1;
  return { now: clock, newId: () => `x${clock}` };
}
