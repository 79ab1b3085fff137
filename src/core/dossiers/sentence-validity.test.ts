import { describe, expect, it } from 'vitest';
import type { DossierSentence } from '../../../protocol/index.ts';
import { normaliseText } from '../memory/normalise-text.ts';
import { sentenceValidity, sentencesHeldAt, versionStandingAt, type DossierVersionOf } from './sentence-validity.ts';

const sentence = (id: string, text: string): DossierSentence => ({ id, text, citations: ['codex:s#1'] });

function version(number: number, writtenAt: number, what: DossierSentence[]): DossierVersionOf {
  return { version: number, writtenAt, sections: { what, decisions: [], status: [], open: [] } };
}

// A topic's history: "uses SQLite" holds from v1; v2 adds "ships monthly"; v3 rewords the cadence (same id) and a
// rebuild in v4 renumbers "uses SQLite" and drops the cadence altogether.
const history = [
  version(1, 100, [sentence('a', 'The app uses SQLite.')]),
  version(2, 200, [sentence('a', 'The app uses SQLite.'), sentence('b', 'It ships monthly.')]),
  version(3, 300, [sentence('a', 'The app uses SQLite.'), sentence('b', 'It ships weekly.')]),
  version(4, 400, [sentence('z', 'The app  uses SQLite.')]),
];

describe('a dossier sentence’s validity (#29.4)', () => {
  it('holds from the first version that said it, across rebuilds that renumber it, while no version dropped it', () => {
    expect(sentenceValidity(history, 4).get('z')).toEqual({ from: 100, to: null });
    expect(sentenceValidity(history, 1).get('a')).toEqual({ from: 100, to: null });
  });

  it('ends at the version that reworded or dropped it, and the new wording holds from there', () => {
    expect(sentenceValidity(history, 2).get('b')).toEqual({ from: 200, to: 300 });
    expect(sentenceValidity(history, 3).get('b')).toEqual({ from: 300, to: 400 });
  });

  it('is not ended by a strike: a put-aside sentence left out of later versions was not superseded', () => {
    const struck = (text: string) => text === 'It ships weekly.';
    expect(sentenceValidity(history, 3, struck).get('b')).toEqual({ from: 300, to: null });
    expect(sentenceValidity(history, 2, struck).get('b')).toEqual({ from: 200, to: 300 });
  });

  it('reads the history in any order and knows no sentence of a version it was not given', () => {
    expect(sentenceValidity([...history].reverse(), 3).get('b')).toEqual({ from: 300, to: 400 });
    expect(sentenceValidity(history, 9).size).toBe(0);
  });

  it('agrees at every time with the version an "as of" read serves', () => {
    const words = (texts: readonly string[]) => texts.map(normaliseText).sort();
    for (const time of [50, 100, 150, 200, 299, 300, 399, 400, 10_000]) {
      const standing = versionStandingAt(history, time);
      const served = standing ? standing.sections.what.map((each) => each.text) : [];
      expect(words(sentencesHeldAt(history, time)), `at ${time}`).toEqual(words(served));
    }
    expect(versionStandingAt(history, 99)).toBeNull();
    expect(versionStandingAt(history, 250)?.version).toBe(2);
  });
});
