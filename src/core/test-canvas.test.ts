import { describe, expect, it } from 'vitest';
import { STALE_MARK } from './compiled-context.ts';
import { TestCanvas } from './test-canvas.ts';

describe('TestCanvas', () => {
  it('reads like a person using the canvas, and its assertions fail loudly', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('What is a wire?');
    canvas.answer(question, 'Context.');
    const follow = canvas.addQuestion('And a dashed one?');
    canvas.wire(question, follow);
    canvas.answer(follow, 'A quoted reference.');
    canvas.edit(question, { question: 'What is a wire, exactly?' });
    canvas.assertStale([question, follow]);
    canvas.assertLastEvents(['version', 'edit']);
    const last = canvas.addQuestion('Last?');
    canvas.wire(follow, last);
    canvas.assertTranscript(
      last,
      [
        '--- user',
        'What is a wire, exactly?',
        '--- assistant',
        `${STALE_MARK}`,
        'Context.',
        '--- user',
        'And a dashed one?',
        '--- assistant',
        `${STALE_MARK}`,
        'A quoted reference.',
        '--- user',
        'Last?',
      ].join('\n'),
    );
    expect(() => canvas.assertStale([])).toThrow(/shown stale set: expected \[\], got/);
    expect(() => canvas.assertLastEvents(['archive'])).toThrow(/last events/);
    expect(() => canvas.assertTranscript(last, 'nothing')).toThrow(/transcript of/);
  });

  it('is deterministic: the same script gives the same document bytes', () => {
    const script = () => {
      const canvas = new TestCanvas();
      const a = canvas.addQuestion('a');
      canvas.answer(a, 'x');
      const b = canvas.addNote('n');
      canvas.wire(b, a);
      return JSON.stringify(canvas.document());
    };
    expect(script()).toBe(script());
  });
});
