import { describe, expect, it } from 'vitest';
import { answerValue } from './answer-value.ts';

describe('answerValue and citation markers', () => {
  it.each([
    ['42 (see [1])', null, 42],
    ['The total is 42 [1].', null, 42],
    ['The total is 42.[12]', null, 42],
    ['42 [1, 2]', null, 42],
    ['42 [2-4]', null, 42],
    ['42[^3]', null, 42],
    ['The total is 42¹.', null, 42],
    ['D = 22 [3]', 'D', 22],
    ['The answer is **22** [4].', null, 22],
    ['Per [1], C = 14; so **22** [2].', null, 22],
  ])('%j (asked %s) gives %d', (reply, variable, value) => {
    expect(answerValue(reply, variable)).toBe(value);
  });

  it('still reads a bracketed number when the reply holds nothing else', () => {
    expect(answerValue('[42]')).toBe(42);
  });

  it('does not read a reference as the answer when the reply has no number of its own', () => {
    expect(answerValue('I cannot tell [1].')).toBeNull();
  });
});
