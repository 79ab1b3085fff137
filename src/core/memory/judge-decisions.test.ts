import { describe, expect, it } from 'vitest';
import {
  candidateFromJudgement,
  coversRequest,
  durableRequest,
  judgedSentences,
  MAX_JUDGED_SENTENCES,
  pickCategory,
  pickCovered,
} from './judge-decisions.ts';
import { mergeFact } from './merge-fact.ts';
import { admitFact } from './admit-fact.ts';
import { emptyProfile } from './profile.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';

describe('the memory judge decisions', () => {
  it('asks only about statements in the person’s own words, never the answer or other texts', () => {
    const exchange = testExchange(
      'I prefer tabs over spaces. How do I set that? Ok.',
      { answer: 'You prefer Emacs, I am sure.', recall: 'I live in Oslo with my cat.' },
      'I use Linux at home.',
    );
    expect(judgedSentences(exchange)).toEqual(['I prefer tabs over spaces.', 'I use Linux at home.']);
    const many = testExchange(Array.from({ length: 20 }, (_, index) => `I like number ${index}.`).join(' '));
    expect(judgedSentences(many)).toHaveLength(MAX_JUDGED_SENTENCES);
  });

  it('sends the answer as context only, marked as never a fact about the person', () => {
    const exchange = testExchange('I prefer tabs over spaces.', { answer: 'Use :set noexpandtab.' });
    const request = durableRequest(exchange, 'I prefer tabs over spaces.');
    expect(request.options).toEqual(['durable', 'passing']);
    expect(request.prompt).toContain("[The model's answer — context only, never a fact about the person]");
    expect(request.prompt).toContain('[Sentence]\nI prefer tabs over spaces.\n');
  });

  it('applies the documented cut-offs', () => {
    const sentence = 'I prefer tabs over spaces.';
    const category = { preference: 0.8, identity: 0.1, project: 0.1 };
    expect(candidateFromJudgement(sentence, { durable: { durable: 0.59 }, category })).toBeNull();
    expect(candidateFromJudgement(sentence, { durable: { durable: 0.6 }, category, stated: { stated: 0.5 } })).toEqual({
      text: sentence,
      category: 'preference',
      span: sentence,
      stated: true,
      updates: null,
      path: 'judge',
    });
    expect(
      candidateFromJudgement(sentence, { durable: { durable: 0.9 }, category, stated: { stated: 0.49 } })?.stated,
    ).toBe(false);
    expect(pickCategory({ preference: 0.49, identity: 0.3, project: 0.21 })).toBeNull();
    expect(pickCategory({ preference: 0.2, identity: 0.5, project: 0.3 })).toBe('identity');
    expect(pickCovered({ none: 0.41, 'line-1': 0.59 })).toBeNull();
    expect(pickCovered({ none: 0.1, 'line-1': 0.6, 'line-2': 0.3 })).toBe('line-1');
    expect(pickCovered({ none: 1 })).toBeNull();
  });

  it('offers the fact’s document’s current line ids as what it may cover, and a covered line is replaced', () => {
    const context = testContext();
    const first = testExchange('I prefer tabs over spaces.');
    const admitted = admitFact(
      testCandidate('I prefer tabs over spaces.', 'I prefer tabs over spaces.'),
      first,
      emptyProfile(),
      0,
    );
    if (!admitted.admitted) throw new Error('expected admission');
    const merged = mergeFact(emptyProfile(), admitted.fact, null, context);
    if (!merged.ok) throw new Error('expected merge');
    const profile = merged.value.profile;
    expect(coversRequest(first, 'x', emptyProfile(), 'preference')).toBeNull();
    expect(coversRequest(first, 'x', profile, 'identity')).toBeNull();
    const covers = coversRequest(first, 'I prefer spaces now.', profile, 'preference')!;
    expect(covers.options).toEqual(['none', merged.value.lineId]);
    expect(covers.prompt).toContain(`${merged.value.lineId}: I prefer tabs over spaces.`);
  });
});
