import { describe, expect, it } from 'vitest';
import { locateSelection } from './answer-selection.ts';

describe('locateSelection', () => {
  const answer = 'Water rises in spring. Later, in autumn, water rises in spring-fed wells too.';

  it('takes a repeated phrase at the occurrence where the selection sits, not always the first', () => {
    const second = answer.lastIndexOf('water rises in spring');
    expect(locateSelection(answer, 'rises in spring', 0.05)).toMatchObject({ start: 6 });
    expect(locateSelection(answer, 'rises in spring', 0.7)).toMatchObject({ start: second + 6 });
  });

  it('finds a selection whose rendering dropped Markdown marks, at the right occurrence too', () => {
    const marked = 'A **bold claim** here. And a **bold claim** there.';
    expect(locateSelection(marked, 'bold claim', 0.9)).toMatchObject({ start: marked.lastIndexOf('bold claim') });
    expect(locateSelection('One *soft* word, then *soft* again.', 'One soft word')).toMatchObject({
      start: 0,
      text: 'One *soft* word',
    });
  });

  it('gives the first occurrence when no position is known, and nothing for text the answer does not hold', () => {
    expect(locateSelection(answer, 'rises in spring')).toMatchObject({ start: 6 });
    expect(locateSelection(answer, 'not in the answer')).toBeNull();
    expect(locateSelection(answer, '   ')).toBeNull();
  });
});
