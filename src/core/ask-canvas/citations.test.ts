import { describe, expect, it } from 'vitest';
import { splitCitations } from './citations.ts';

describe('citations in an answer (C17)', () => {
  it('finds #N and [N], and each number of a bracketed list', () => {
    expect(splitCitations('See #2 and [3], also [1, #4].', 5)).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'cite', number: 2, text: '#2' },
      { kind: 'text', text: ' and [' },
      { kind: 'cite', number: 3, text: '3' },
      { kind: 'text', text: '], also [' },
      { kind: 'cite', number: 1, text: '1' },
      { kind: 'text', text: ', ' },
      { kind: 'cite', number: 4, text: '4' },
      { kind: 'text', text: '].' },
    ]);
  });

  it('leaves numbers outside the outline and #N glued to a word as text', () => {
    const text = 'In [2023] C#3 used &#3; and #9 and issue#2.';
    expect(splitCitations(text, 5)).toEqual([{ kind: 'text', text }]);
  });

  it('keeps the whole text when joined back', () => {
    const text = 'Nodes [1] and #2 disagree; [5] is stale.';
    const pieces = splitCitations(text, 5);
    expect(pieces.filter((piece) => piece.kind === 'cite')).toHaveLength(3);
    expect(pieces.map((piece) => piece.text).join('')).toBe(text);
  });
});
