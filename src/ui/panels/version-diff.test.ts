import { describe, expect, it } from 'vitest';
import { sideBySide } from './version-diff.ts';

describe('sideBySide', () => {
  it('marks dropped words on the left and new words on the right, keeping the shared text on both', () => {
    const diff = sideBySide('The warp runs along the loom.', 'The warp runs lengthwise along the loom.');
    expect(diff.left.map((piece) => piece.text).join('')).toBe('The warp runs along the loom.');
    expect(diff.right.map((piece) => piece.text).join('')).toBe('The warp runs lengthwise along the loom.');
    expect(diff.right.filter((piece) => piece.change === 'added').map((piece) => piece.text.trim())).toEqual([
      'lengthwise',
    ]);
    expect(diff.addedWords).toBe(1);
    expect(diff.removedWords).toBe(0);
  });

  it('identical texts have no marked pieces', () => {
    const diff = sideBySide('same text', 'same text');
    expect([...diff.left, ...diff.right].every((piece) => piece.change === 'same')).toBe(true);
  });
});

describe('sideBySide on a rewrite', () => {
  it('keeps the added words together with their spaces, so a rewritten sentence reads as one insertion', () => {
    const diff = sideBySide(
      'The receipt lists the request.',
      'A loom holds the warp taut while the weft is woven across.',
    );
    expect(diff.right.map((piece) => piece.text).join('')).toBe(
      'A loom holds the warp taut while the weft is woven across.',
    );
    expect(diff.left.map((piece) => piece.text).join('')).toBe('The receipt lists the request.');
    const added = diff.right.filter((piece) => piece.change === 'added').map((piece) => piece.text);
    expect(added.join('|')).toContain('warp taut');
  });
});
