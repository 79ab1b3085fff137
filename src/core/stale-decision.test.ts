import { describe, expect, it } from 'vitest';
import { TestCanvas } from './test-canvas.ts';
import { demoCanvas } from './demo-canvas.ts';
import { graphFromDocument } from './graph.ts';
import { computeStaleFull } from './stale-tracker.ts';
import { staleDecision } from './stale-decision.ts';
import type { QuestionNode } from '../../protocol/canvas-document.ts';

const question = (canvas: TestCanvas, id: string) => canvas.graph.nodes.get(id) as QuestionNode;

describe('staleDecision', () => {
  it('asks about an answer whose upstream changed, naming the part before and after', () => {
    const canvas = new TestCanvas();
    const upstream = canvas.addQuestion('Why is the sky blue?');
    canvas.answer(upstream, 'Rayleigh scattering.');
    const downstream = canvas.addQuestion('And at sunset?');
    canvas.wire(upstream, downstream);
    canvas.answer(downstream, 'Longer path, blue scattered out.');
    expect(staleDecision(canvas.graph, question(canvas, downstream))).toBeNull();

    canvas.edit(upstream, { question: 'Why is the daytime sky blue?' });
    const request = staleDecision(canvas.graph, question(canvas, downstream));
    expect(request?.kind).toBe('stale');
    expect(request?.options).toEqual(['default', 'unrelated']);
    expect(request?.prompt).toContain('Question: And at sunset?');
    expect(request?.prompt).toMatch(/before: Why is the sky blue\?[\s\S]*after: {2}Why is the daytime sky blue\?/);
  });

  it('has nothing to ask for a question never answered', () => {
    const canvas = new TestCanvas();
    const node = canvas.addQuestion('Unanswered');
    expect(staleDecision(canvas.graph, question(canvas, node))).toBeNull();
  });

  it('never asks about an answer whose own question the person edited, even with its upstream changed too', () => {
    const canvas = new TestCanvas();
    const upstream = canvas.addQuestion('Why is the sky blue?');
    canvas.answer(upstream, 'Rayleigh scattering.');
    const downstream = canvas.addQuestion('And at sunset?');
    canvas.wire(upstream, downstream);
    canvas.answer(downstream, 'Longer path, blue scattered out.');
    canvas.edit(upstream, { question: 'Why is the daytime sky blue?' });
    canvas.edit(downstream, { question: 'And at dawn?' });
    expect(staleDecision(canvas.graph, question(canvas, downstream))).toBeNull();
    canvas.edit(downstream, { question: 'And at sunset?' });
    expect(staleDecision(canvas.graph, question(canvas, downstream))?.kind).toBe('stale');
  });

  it('never asks about the first-run canvas’s pre-written answers, though one of them is stale by design', () => {
    let id = 0;
    const document = demoCanvas(0, () => `demo-${id++}`);
    const graph = graphFromDocument(document);
    const stale = [...computeStaleFull(graph).stale];
    expect(stale.length).toBeGreaterThan(0);
    for (const nodeId of stale) expect(staleDecision(graph, graph.nodes.get(nodeId) as QuestionNode)).toBeNull();
  });
});
