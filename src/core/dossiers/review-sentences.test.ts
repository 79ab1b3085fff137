import { describe, expect, it } from 'vitest';
import type { Dossier } from '../../../protocol/index.ts';
import { isPutAside, contentKey } from '../memory/put-aside.ts';
import { splitNewSentences } from './new-sentences.ts';
import { struckCount, withoutStruck } from './struck-sentences.ts';

const dossier = (sections: Partial<Dossier['sections']>, version = 1): Dossier => ({
  format: 'weft.dossier',
  topicId: 't',
  version,
  writtenAt: 1,
  sections: { what: [], decisions: [], status: [], open: [], ...sections },
});
const sentence = (id: string, text: string) => ({ id, text, citations: ['canvas:c#n@v'] });

describe('struck sentences (issue 29.2)', () => {
  it('leaves out a struck sentence by its words, under any id, spacing or case; counts it', () => {
    const putAsides = new Set([contentKey('dossier-sentence', 'The cache is per user.')]);
    const isStruck = (text: string) => isPutAside(putAsides, 'dossier-sentence', text);
    const written = dossier({
      what: [sentence('a', '  the CACHE is per   user. '), sentence('b', 'The cache expires hourly.')],
      open: [sentence('c', 'The cache is per user.')],
    });
    expect(withoutStruck(written, isStruck).sections).toEqual({
      what: [sentence('b', 'The cache expires hourly.')],
      decisions: [],
      status: [],
      open: [],
    });
    expect(struckCount(written, isStruck)).toBe(2);
    // A canvas turn with the same words is another kind: it strikes nothing here.
    const other = new Set([contentKey('canvas-turn', 'The cache expires hourly.')]);
    expect(struckCount(written, (text) => isPutAside(other, 'dossier-sentence', text))).toBe(0);
  });
});

describe('new sentences under review (issue 29.1)', () => {
  it('keeps what the current dossier already said (by words) and sets the rest apart, section by section', () => {
    const current = dossier({ what: [sentence('a', 'The cache is per user.')] });
    const written = dossier(
      {
        what: [sentence('a2', 'the cache is PER user.'), sentence('n1', 'The cache expires hourly.')],
        decisions: [sentence('n2', 'We keep Redis.')],
      },
      2,
    );
    const { dossier: kept, fresh } = splitNewSentences(written, current);
    expect(kept.sections.what.map((each) => each.id)).toEqual(['a2']);
    expect(kept.sections.decisions).toEqual([]);
    expect(kept.version).toBe(2);
    expect(fresh).toEqual([
      { section: 'what', text: 'The cache expires hourly.', citations: ['canvas:c#n@v'] },
      { section: 'decisions', text: 'We keep Redis.', citations: ['canvas:c#n@v'] },
    ]);
    // A first build: everything is new.
    expect(splitNewSentences(written, null).fresh).toHaveLength(3);
  });
});
