import { describe, expect, it } from 'vitest';
import { emptyCanvasDocument } from './graph.ts';
import { loadCanvas } from './load-canvas.ts';
import { TestCanvas } from './test-canvas.ts';

function sample() {
  const canvas = new TestCanvas();
  const a = canvas.addQuestion('a');
  const b = canvas.addQuestion('b');
  canvas.wire(a, b);
  return JSON.parse(JSON.stringify(canvas.document()));
}

describe('loadCanvas', () => {
  it('loads a valid document', () => {
    const result = loadCanvas(sample());
    expect(result.ok && result.value.graph.nodes.size).toBe(2);
    expect(loadCanvas(emptyCanvasDocument({ id: 'c', name: 'n', workingDirectory: null, createdAt: 0 })).ok).toBe(true);
  });

  it('loads a canvas whose event log was tampered with, and says where the chain breaks', () => {
    const document = sample();
    const intact = loadCanvas(document);
    expect(intact.ok && intact.value.brokenEventAt).toBeNull();
    document.events[1].op = 'forged';
    const result = loadCanvas(document);
    expect(result.ok && result.value.brokenEventAt).toBe(1);
  });

  it('loads a file whose event holds a lone surrogate (valid JSON escape), reporting that event as broken', () => {
    const text = JSON.stringify(sample()).replace('"op":"wire"', '"op":"wire\\ud800"');
    const result = loadCanvas(JSON.parse(text));
    expect(result.ok && result.value.brokenEventAt).toBe(2);
  });

  it('refuses duplicate ids, dangling wires and cycles, saying where', () => {
    const duplicate = sample();
    duplicate.nodes[1].id = duplicate.nodes[0].id;
    duplicate.wires = [];
    const first = loadCanvas(duplicate);
    expect(!first.ok && first.error).toMatchObject({ code: 'corrupt', path: 'nodes.1.id' });

    const dangling = sample();
    dangling.wires[0].to = 'ghost';
    const second = loadCanvas(dangling);
    expect(!second.ok && second.error.message).toMatch(/missing node ghost/);

    const cyclic = sample();
    cyclic.wires.push({ ...cyclic.wires[0], id: 'back', from: cyclic.wires[0].to, to: cyclic.wires[0].from });
    const third = loadCanvas(cyclic);
    expect(!third.ok && third.error.message).toMatch(/cycle/);
  });
});
