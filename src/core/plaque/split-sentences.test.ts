import { describe, expect, it } from 'vitest';
import { splitSentences } from './split-sentences.ts';

describe('splitSentences (C32: the numbers a plaque quotes)', () => {
  it('numbers prose sentences from 1, each a verbatim slice of the answer', () => {
    const answer = 'Dexie stores records. It runs on IndexedDB!\n\nIs it fast? Yes, mostly.';
    const sentences = splitSentences(answer);
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      'Dexie stores records.',
      'It runs on IndexedDB!',
      'Is it fast?',
      'Yes, mostly.',
    ]);
    expect(sentences.map((sentence) => sentence.number)).toEqual([1, 2, 3, 4]);
    for (const sentence of sentences) expect(answer.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });

  it('skips code blocks, table rows and rules, and drops list and heading markers', () => {
    const answer = [
      '## Setup',
      '```ts',
      'const a = 1. Not a sentence.',
      '```',
      '- First, install it.',
      '2. Then run it.',
      '| a | b |',
      '---',
    ].join('\n');
    expect(splitSentences(answer).map((sentence) => sentence.text)).toEqual([
      'Setup',
      'First, install it.',
      'Then run it.',
    ]);
  });

  it('does not end a sentence after e.g. or an initial', () => {
    const answer = 'Use a store, e.g. Dexie, for this. J. Smith wrote it. Done.';
    expect(splitSentences(answer).map((sentence) => sentence.text)).toEqual([
      'Use a store, e.g. Dexie, for this.',
      'J. Smith wrote it.',
      'Done.',
    ]);
  });

  it('does not end a sentence after et al.', () => {
    const answer = 'Vaswani et al. (2017). showed attention suffices. It scaled.';
    expect(splitSentences(answer).map((sentence) => sentence.text)).toEqual([
      'Vaswani et al. (2017). showed attention suffices.',
      'It scaled.',
    ]);
  });

  it('finds no sentence in an empty answer', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('\n\n```\ncode\n```\n')).toEqual([]);
  });
});
