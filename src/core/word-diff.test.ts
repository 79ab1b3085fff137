import { describe, expect, it } from 'vitest';
import { wordDiff, WORD_DIFF_MAX_EDITS, type WordChange } from './word-diff.ts';

const side = (runs: WordChange[], drop: WordChange['change']) =>
  runs
    .filter((run) => run.change !== drop)
    .map((run) => run.text)
    .join('');
const words = (runs: WordChange[], change: WordChange['change']) =>
  runs.filter((run) => run.change === change).flatMap((run) => run.text.split(/\s+/).filter(Boolean));

/** A small deterministic generator, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('wordDiff', () => {
  it('marks the one word added and keeps the rest shared', () => {
    const runs = wordDiff('The warp runs along the loom.', 'The warp runs lengthwise along the loom.');
    expect(words(runs, 'added')).toEqual(['lengthwise']);
    expect(words(runs, 'removed')).toEqual([]);
  });

  it('finds a replaced word in the middle of a long text as one removal and one insertion', () => {
    const older = Array.from({ length: 2_000 }, (_, index) => `w${index % 50}`).join(' ');
    const newer = older.replace(/^((?:\S+ ){1000})\S+/, '$1changed');
    const runs = wordDiff(older, newer);
    expect(words(runs, 'added')).toEqual(['changed']);
    expect(words(runs, 'removed')).toEqual(['w0']);
  });

  it('rebuilds both texts exactly, and each word it calls changed is one a minimal edit changes', () => {
    const next = random(7);
    const vocabulary = ['the', 'loom', 'warp', 'weft', 'holds', 'taut', 'a', 'thread'];
    const text = (length: number) =>
      Array.from({ length }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(next() < 0.5 ? ' ' : '  ');
    for (let round = 0; round < 200; round += 1) {
      const older = text(Math.floor(next() * 30));
      const newer = text(Math.floor(next() * 30));
      const runs = wordDiff(older, newer);
      expect(side(runs, 'added')).toBe(older);
      expect(side(runs, 'removed')).toBe(newer);
      // Shared runs are never empty, and neighbouring runs differ in kind.
      for (const [index, run] of runs.entries()) {
        expect(run.text.length).toBeGreaterThan(0);
        if (index > 0) expect(run.change).not.toBe(runs[index - 1]!.change);
      }
    }
  });

  it('is minimal: as many words changed as the longest common subsequence leaves', () => {
    const next = random(11);
    const lcs = (a: string[], b: string[]) => {
      const row = new Array<number>(b.length + 1).fill(0);
      for (const x of a) {
        let diagonal = 0;
        for (let j = 1; j <= b.length; j += 1) {
          const above = row[j]!;
          row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
          diagonal = above;
        }
      }
      return row[b.length]!;
    };
    for (let round = 0; round < 100; round += 1) {
      const a = Array.from({ length: Math.floor(next() * 25) }, () => 'abcd'[Math.floor(next() * 4)]!);
      const b = Array.from({ length: Math.floor(next() * 25) }, () => 'abcd'[Math.floor(next() * 4)]!);
      const runs = wordDiff(a.map((word) => `${word} `).join(''), b.map((word) => `${word} `).join(''));
      expect(words(runs, 'removed').length + words(runs, 'added').length).toBe(a.length + b.length - 2 * lcs(a, b));
    }
  });

  it('texts too far apart come back as one removal and one insertion, still rebuilding both', () => {
    const older = Array.from({ length: WORD_DIFF_MAX_EDITS }, (_, index) => `old${index}`).join(' ');
    const newer = Array.from({ length: WORD_DIFF_MAX_EDITS }, (_, index) => `new${index}`).join(' ');
    const runs = wordDiff(older, newer);
    expect(runs.map((run) => run.change)).toEqual(['removed', 'added']);
    expect(side(runs, 'added')).toBe(older);
    expect(side(runs, 'removed')).toBe(newer);
  });

  it('aligns two 2,000-word answers that differ in a fifth of their words (bench:compare times this case)', () => {
    const vocabulary = 'the sky scatters light blue because shorter wavelengths bend more'.split(' ');
    const answer = (seed: number) =>
      Array.from({ length: 2_000 }, (_, index) =>
        index % 10 === seed ? `w${seed}x${index}` : vocabulary[index % vocabulary.length],
      ).join(' ');
    const runs = wordDiff(answer(0), answer(1));
    // Each has 200 words of its own where the other has a shared one: 400 replaced, 1,600 kept.
    expect(words(runs, 'added')).toHaveLength(400);
    expect(words(runs, 'removed')).toHaveLength(400);
    expect(words(runs, 'same')).toHaveLength(1_600);
  });
});
