import { describe, expect, it } from 'vitest';
import { planCondense, planFanOut, planMerge } from './canvas-helpers.ts';
import { parseSubQuestions, ruleSubQuestions } from './sub-questions.ts';
import { TestCanvas } from './test-canvas.ts';

describe('canvas helpers (C33)', () => {
  it('refuse what they cannot make, with coded errors', () => {
    const canvas = new TestCanvas();
    const one = canvas.addQuestion('One?', { id: 'one' });
    const two = canvas.addQuestion('Two?', { id: 'two' });
    const frame = canvas.addFrame('Group');
    const newId = () => 'new';
    expect(planMerge(canvas.graph, [one], { newId })).toMatchObject({ code: 'invalid' });
    expect(planMerge(canvas.graph, [one, frame], { newId })).toMatchObject({ code: 'invalid' });
    expect(planMerge(canvas.graph, [one, 'gone'], { newId })).toMatchObject({ code: 'not-found' });
    canvas.archive(two);
    expect(planMerge(canvas.graph, [one, two], { newId })).toMatchObject({ code: 'archived' });
    expect(planCondense(canvas.graph, [one, two], { newId })).toMatchObject({ code: 'archived' });
    expect(planFanOut(canvas.graph, one, ['  ', ''], { newId })).toMatchObject({ code: 'invalid' });
    expect(
      planFanOut(
        canvas.graph,
        one,
        Array.from({ length: 13 }, (_, i) => `Q${i}?`),
        { newId },
      ),
    ).toMatchObject({
      code: 'invalid',
    });
  });

  it('condense accepts a chain in any selection order and wires the conclusion from its end', () => {
    const canvas = new TestCanvas();
    for (const id of ['a', 'b', 'c']) canvas.addQuestion(`${id}?`, { id });
    canvas.wire('a', 'b');
    canvas.wire('b', 'c');
    let counter = 0;
    const plan = planCondense(canvas.graph, ['c', 'a', 'b'], { newId: () => `n${counter++}` });
    if (plan instanceof Error) throw plan;
    canvas.apply(plan.change);
    expect([...canvas.graph.wires.values()].filter((wire) => wire.to === plan.created[0])).toEqual([
      expect.objectContaining({ from: 'c', kind: 'solid' }),
    ]);
    // A skipped link is not a chain.
    expect(planCondense(canvas.graph, ['a', 'c'], { newId: () => 'x' })).toMatchObject({ code: 'invalid' });
  });
});

describe('sub-question proposals', () => {
  it('reads one question a line from a model, dropping list marks, prose and duplicates', () => {
    expect(parseSubQuestions('Sure:\n1. What is X?\n2) what is x?\n- **Why Y?**\n(3) How Z?\nDone.')).toEqual([
      'What is X?',
      'Why Y?',
      'How Z?',
    ]);
  });

  it('the rule splits compound questions and gives a single one four angles', () => {
    expect(ruleSubQuestions('What is X? Why does Y happen?')).toEqual(['What is X?', 'Why does Y happen?']);
    expect(ruleSubQuestions('compare the costs; weigh the risks')).toEqual(['Compare the costs?', 'Weigh the risks?']);
    expect(ruleSubQuestions('Why is the sea salty?')).toHaveLength(4);
    expect(ruleSubQuestions('   ')).toEqual([]);
  });
});
