import { describe, expect, it } from 'vitest';
import { applyChange } from '../../core/index.ts';
import { TestCanvas } from '../../core/test-canvas.ts';
import { autoLayout } from './auto-layout.ts';

function positions(canvas: TestCanvas): Map<string, { x: number; y: number }> {
  return new Map([...canvas.graph.nodes.values()].map((node) => [node.id, node.position]));
}

describe('autoLayout', () => {
  it('puts each node to the right of what feeds it, without overlaps, as one batch of moves', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('first', { id: 'a' });
    const second = canvas.addQuestion('second', { id: 'b' });
    const third = canvas.addQuestion('third', { id: 'c' });
    canvas.wire(first, second);
    canvas.wire(first, third);
    const change = autoLayout(canvas.graph, null);
    expect(change?.type).toBe('batch');
    canvas.apply(change!);
    const placed = positions(canvas);
    expect(placed.get(second)!.x).toBeGreaterThan(placed.get(first)!.x + 300);
    expect(placed.get(third)!.x).toBe(placed.get(second)!.x);
    expect(Math.abs(placed.get(third)!.y - placed.get(second)!.y)).toBeGreaterThanOrEqual(170);
    // Laid out already: nothing more moves.
    expect(autoLayout(canvas.graph, null)).toBeNull();
  });

  it('lays out only the selection, keeping its top-left corner, and leaves the rest where it was', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('first', { id: 'a' });
    const second = canvas.addQuestion('second', { id: 'b' });
    const aside = canvas.addQuestion('aside', { id: 'z' });
    canvas.wire(first, second);
    canvas.apply({ type: 'move-node', nodeId: first, position: { x: 500, y: 400 } });
    canvas.apply({ type: 'move-node', nodeId: second, position: { x: 520, y: 410 } });
    const asideBefore = canvas.graph.nodes.get(aside)!.position;
    const change = autoLayout(canvas.graph, [first, second]);
    const moved = applyChange(canvas.graph, change!, canvas.context());
    if (!moved.ok) throw moved.error;
    const after = moved.value.graph.nodes;
    expect(after.get(first)!.position).toEqual({ x: 500, y: 400 });
    expect(after.get(second)!.position.x).toBeGreaterThan(800);
    expect(after.get(aside)!.position).toEqual(asideBefore);
    expect(change!.changes.map((entry) => (entry.type === 'move-node' ? entry.nodeId : '')).sort()).not.toContain(
      aside,
    );
  });

  it('a layout is not an edit of context: no answer goes stale', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('first', { id: 'a' });
    const second = canvas.addQuestion('second', { id: 'b' });
    canvas.wire(first, second);
    canvas.answer(first, 'one');
    canvas.answer(second, 'two');
    canvas.apply(autoLayout(canvas.graph, null)!);
    expect(canvas.staleIds()).toEqual([]);
  });
});
