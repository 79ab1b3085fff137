import { describe, expect, it } from 'vitest';
import { pageLabel, selectionPages, selectionText } from './pdf-selection.ts';

describe('pdf selection', () => {
  it('a passage on one page carries that page', () => {
    const parts = [{ page: 2, text: 'nearly flat' }];
    expect(selectionPages(parts)).toEqual([2]);
    expect(selectionText(parts)).toBe('nearly flat');
    expect(pageLabel(selectionPages(parts))).toBe('p. 2');
  });

  it('a selection spanning pages carries each page it holds text on, in order', () => {
    const parts = [
      { page: 5, text: 'end of the argument' },
      { page: 3, text: 'It begins\nhere' },
      { page: 4, text: 'and runs on' },
    ];
    expect(selectionPages(parts)).toEqual([3, 4, 5]);
    expect(selectionText(parts)).toBe('It begins\nhere\n\nand runs on\n\nend of the argument');
    expect(pageLabel(selectionPages(parts))).toBe('pp. 3–5');
  });

  it('a page the selection only brushes with whitespace is not carried', () => {
    const parts = [
      { page: 1, text: '  \n ' },
      { page: 2, text: 'Mie   scattering ' },
    ];
    expect(selectionPages(parts)).toEqual([2]);
    expect(selectionText(parts)).toBe('Mie scattering');
  });

  it('an empty selection carries no pages and no text', () => {
    expect(selectionPages([])).toEqual([]);
    expect(selectionText([{ page: 1, text: '' }])).toBe('');
  });
});
