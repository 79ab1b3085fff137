import { describe, expect, it } from 'vitest';
import { TestCanvas } from '../../src/core/index.ts';
import { conditionContext, equivalenceProblems } from './conditions.ts';
import { generateCases } from './generate-cases.ts';
import { referenceOrder } from './reference-compiler.ts';

describe('the reference compiler', () => {
  it('orders references, then the chain by creation time among ready nodes, then the question', () => {
    const canvas = new TestCanvas();
    const late = canvas.addQuestion('late root');
    const early = canvas.addQuestion('early root', { id: 'a-early' });
    const note = canvas.addNote('a note');
    const far = canvas.addQuestion('far away');
    const target = canvas.addQuestion('target');
    canvas.wire(late, target);
    canvas.wire(early, target);
    canvas.wire(note, late);
    canvas.wire(far, target, 'quote');
    canvas.answer(late, 'late answer');
    canvas.answer(far, 'far answer');
    // `early` has no answer: its question enters, no answer part.
    expect(referenceOrder(canvas.graph, target)).toEqual([
      `${far}:reference`,
      `${early}:question`,
      `${note}:note`,
      `${late}:question`,
      `${late}:answer`,
      `${target}:question`,
    ]);
  });

  it('drops archived nodes but keeps walking through them', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const middle = canvas.addQuestion('middle');
    const target = canvas.addQuestion('target');
    canvas.wire(root, middle);
    canvas.wire(middle, target);
    canvas.answer(root, 'r');
    canvas.answer(middle, 'm');
    canvas.archive(middle);
    expect(referenceOrder(canvas.graph, target)).toEqual([`${root}:question`, `${root}:answer`, `${target}:question`]);
  });

  it('catches a compiled context whose order differs from it', () => {
    const benchCase = generateCases({ perCell: 1 }).cases.find((item) => item.family === 'fan-in')!;
    const context = conditionContext(benchCase, 'polluted', 'test/model');
    expect(equivalenceProblems(context)).toEqual([]);
    const swapped = [...context.compiled.sources];
    [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
    const broken = { ...context, compiled: { ...context.compiled, sources: swapped } };
    expect(equivalenceProblems(broken).join()).toMatch(/^order: core/);
  });
});
