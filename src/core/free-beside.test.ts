import { describe, expect, it } from 'vitest';
import { planFanOut, planMerge } from './canvas-helpers.ts';
import { CARD_SIZE, freeBeside, graphBoxes, type Box } from './free-beside.ts';
import { TestCanvas } from './test-canvas.ts';

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;
}

/** Every pair of live cards on the canvas is apart. */
function expectNoOverlap(canvas: TestCanvas): void {
  const boxes = graphBoxes(canvas.graph);
  for (let i = 0; i < boxes.length; i += 1)
    for (let j = i + 1; j < boxes.length; j += 1)
      expect(overlap(boxes[i]!, boxes[j]!), `cards ${i} and ${j}`).toBe(false);
}

function place(canvas: TestCanvas, id: string, x: number, y: number): void {
  canvas.apply({ type: 'move-node', nodeId: id, position: { x, y } });
}

describe('free spots for new cards', () => {
  it('two passage branches from one answer never land on each other', () => {
    const canvas = new TestCanvas();
    const source = canvas.addQuestion('Source?', { id: 'source' });
    place(canvas, source, 0, 0);
    for (const id of ['first', 'second']) {
      const position = freeBeside(canvas.graph, source)!;
      canvas.apply({ type: 'add-node', node: { kind: 'question', id, question: '', position } });
    }
    expectNoOverlap(canvas);
    // Both sit in the column to the source's right.
    expect(canvas.graph.nodes.get('first')!.position.x).toBe(CARD_SIZE.width + 60);
    expect(canvas.graph.nodes.get('second')!.position.x).toBe(CARD_SIZE.width + 60);
  });

  it('a fan-out column steps past the children the source already has', () => {
    const canvas = new TestCanvas();
    const source = canvas.addQuestion('Source?', { id: 'source' });
    place(canvas, source, 0, 0);
    let counter = 0;
    const newId = () => `n${counter++}`;
    for (const round of [1, 2]) {
      const plan = planFanOut(canvas.graph, source, [`A${round}?`, `B${round}?`, `C${round}?`], { newId });
      if (plan instanceof Error) throw plan;
      canvas.apply(plan.change);
    }
    expect(graphBoxes(canvas.graph)).toHaveLength(7);
    expectNoOverlap(canvas);
  });

  it('a merge node lands beside the selection, not on a card already at that spot', () => {
    const canvas = new TestCanvas();
    const one = canvas.addQuestion('One?', { id: 'one' });
    const two = canvas.addQuestion('Two?', { id: 'two' });
    place(canvas, one, 0, 0);
    place(canvas, two, 0, 400);
    let counter = 0;
    const newId = () => `m${counter++}`;
    for (let round = 0; round < 2; round += 1) {
      const plan = planMerge(canvas.graph, [one, two], { newId });
      if (plan instanceof Error) throw plan;
      canvas.apply(plan.change);
    }
    expectNoOverlap(canvas);
  });
});
