import { describe, expect, it } from 'vitest';
import { ruleLadder, ruleTopic } from './rule-plaque.ts';
import { splitSentences } from './split-sentences.ts';
import { readLadderJson, validateLadder } from './validate-ladder.ts';

const ANSWER =
  'Use IndexedDB through Dexie. It keeps records in the browser. Migrations are versioned. ' +
  'Each schema change needs a new version. Tests can run on fake-indexeddb.';
const sentences = splitSentences(ANSWER);
const good = {
  topic: 'Dexie migrations',
  takeaway: 'Dexie migrations are versioned per schema change',
  reason: 'The answer centres on versioning.',
  sentences: [4, 3, 1],
};

function refusal(raw: unknown): string | null {
  const result = validateLadder(raw, sentences);
  return result.ok ? null : result.error.code;
}

describe('validateLadder (C32)', () => {
  it('accepts a ladder whose topic sits inside its takeaway and whose sentences exist; the abstract is verbatim', () => {
    const result = validateLadder(good, sentences);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.sentences).toEqual([1, 3, 4]);
    expect(result.value.abstract).toEqual([
      'Use IndexedDB through Dexie.',
      'Migrations are versioned.',
      'Each schema change needs a new version.',
    ]);
    for (const sentence of result.value.abstract) expect(ANSWER).toContain(sentence);
  });

  it('matches the topic inside the takeaway ignoring case and spacing', () => {
    expect(refusal({ ...good, topic: 'dexie   MIGRATIONS' })).toBeNull();
  });

  it('refuses each broken ladder with its code', () => {
    expect(refusal({ ...good, topic: 'IndexedDB' })).toBe('topic-not-in-takeaway');
    expect(refusal({ ...good, sentences: [1, 2, 9] })).toBe('sentence-missing');
    expect(refusal({ ...good, sentences: [0, 1, 2] })).toBe('sentence-missing');
    expect(refusal({ ...good, sentences: [1, 1, 2] })).toBe('sentence-repeated');
    expect(refusal({ ...good, sentences: [1, 2] })).toBe('sentence-count');
    expect(refusal({ ...good, sentences: [1, 2, 3, 4, 5] })).toBe('sentence-count');
    expect(refusal({ ...good, takeaway: `Dexie migrations ${'x'.repeat(300)}` })).toBe('too-long');
    expect(refusal({ topic: 'Dexie' })).toBe('unreadable');
    expect(refusal(null)).toBe('unreadable');
    expect(refusal({ ...good, topic: '  ' })).toBe('unreadable');
  });

  it('asks a two-sentence answer for both of its sentences', () => {
    const short = splitSentences('Yes. It works.');
    const result = validateLadder({ topic: 'works', takeaway: 'It works', reason: '', sentences: [2, 1] }, short);
    expect(result.ok && result.value.abstract).toEqual(['Yes.', 'It works.']);
  });

  it('reads the JSON object out of fenced or chatty model text', () => {
    expect(readLadderJson('Sure!\n```json\n{"topic":"a","takeaway":"a b","reason":"","sentences":[1]}\n```')).toEqual({
      topic: 'a',
      takeaway: 'a b',
      reason: '',
      sentences: [1],
    });
    expect(readLadderJson('no json here')).toBeNull();
    expect(readLadderJson('{broken')).toBeNull();
  });
});

describe('the rule fallback (C32, no model)', () => {
  it('takes the first sentence as the takeaway, a topic from inside it and the first three sentences', () => {
    const ladder = ruleLadder('How do I store records?', ANSWER)!;
    expect(ladder.takeaway).toBe('Use IndexedDB through Dexie.');
    expect(ladder.takeaway).toContain(ladder.topic);
    expect(ladder.topic).toBe('Use IndexedDB through Dexie');
    expect(ladder.sentences).toEqual([1, 2, 3]);
    expect(ladder.abstract).toEqual(sentences.slice(0, 3).map((sentence) => sentence.text));
    // What the rule writes passes the same validation a model's ladder must.
    expect(validateLadder(ladder, sentences).ok).toBe(true);
  });

  it('skips opening filler words for the topic', () => {
    expect(ruleTopic('The quick answer is yes.')).toBe('quick answer is yes');
  });

  it('falls back to the question for an answer with no sentences, and to nothing when both are empty', () => {
    expect(ruleLadder('Why is the sky blue?', '')).toMatchObject({ takeaway: 'Why is the sky blue?', abstract: [] });
    expect(ruleLadder('', '')).toBeNull();
  });

  it('clips a long first sentence at a word and keeps the topic inside it', () => {
    const ladder = ruleLadder('Q?', `${'Word '.repeat(80)}end.`)!;
    expect(ladder.takeaway.length).toBeLessThanOrEqual(200);
    expect(ladder.takeaway.endsWith('…')).toBe(true);
    expect(ladder.takeaway).toContain(ladder.topic);
  });

  it('writes the takeaway and topic as plain words, without bold, links or code marks, and keeps the abstract verbatim', () => {
    const answer = '**Use Dexie** with [fake-indexeddb](https://example.test/x) and `npm test`. It works.';
    const ladder = ruleLadder('How?', answer)!;
    expect(ladder.takeaway).toBe('Use Dexie with fake-indexeddb and npm test.');
    expect(ladder.topic).toBe('Use Dexie with fake-indexeddb and npm test');
    expect(ladder.abstract[0]).toBe('**Use Dexie** with [fake-indexeddb](https://example.test/x) and `npm test`.');
    expect(validateLadder(ladder, splitSentences(answer)).ok).toBe(true);
    expect(ruleLadder('Q?', '__Strong__ and *soft* and _light_ words in snake_case here.')!.takeaway).toBe(
      'Strong and soft and light words in snake_case here.',
    );
  });

  it('never splits a bold run in the topic', () => {
    const ladder = ruleLadder('Q?', 'The **quick** brown **fox** jumps over it.')!;
    expect(ladder.topic).toBe('quick brown fox jumps over it');
    expect(ladder.topic).not.toContain('*');
  });
});
