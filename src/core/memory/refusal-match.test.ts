import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../../protocol/index.ts';
import { matchesRefusal } from './refusal-match.ts';

function deleted(text: string): Refusal {
  return { id: 'refusal-1', kind: 'deleted-line', text, lineId: 'line-1', at: 1 };
}

describe('what a refusal blocks', () => {
  it('blocks a shorter rewording of a deleted line', () => {
    expect(matchesRefusal([deleted('I prefer tabs for indentation.')], 'I prefer tabs.')).not.toBeNull();
  });

  it('blocks a longer rewording, as before', () => {
    expect(matchesRefusal([deleted('I prefer tabs.')], 'The user prefers tabs for indentation.')).not.toBeNull();
  });

  it('treats like, love, prefer and enjoy as one preference', () => {
    expect(matchesRefusal([deleted('I like tabs.')], 'I love tabs.')).not.toBeNull();
    expect(matchesRefusal([deleted('I enjoy green tea.')], 'The user likes green tea')).not.toBeNull();
  });

  it('lets an unrelated fact through, and a fact with no content words only by its exact text', () => {
    expect(matchesRefusal([deleted('I prefer tabs for indentation.')], 'I prefer British spelling.')).toBeNull();
    expect(matchesRefusal([deleted('I like it.')], 'I prefer tabs.')).toBeNull();
    expect(matchesRefusal([deleted('I like it.')], 'i like it.')).not.toBeNull();
  });

  it('lets the opposite through: a deleted "I like tabs." does not refuse "I don\'t like tabs." or "I hate tabs."', () => {
    expect(matchesRefusal([deleted('I like tabs.')], "I don't like tabs.")).toBeNull();
    expect(matchesRefusal([deleted('I like tabs.')], 'I hate tabs.')).toBeNull();
    expect(matchesRefusal([deleted('I never use tabs.')], 'I use tabs.')).toBeNull();
    // Both negated: still one statement, reworded.
    expect(matchesRefusal([deleted('I hate tabs.')], 'I really hate tabs in Python.')).not.toBeNull();
  });
});
