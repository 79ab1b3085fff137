import { describe, expect, it } from 'vitest';
import { judgeRequestTokens } from './judge-request-tokens.ts';

describe('the labelling plan prices each judge request', () => {
  it('counts a CJK opening at no less than a token a character (a length estimate gives a quarter)', () => {
    const opening = '東京の倉庫はどこですか'.repeat(40);
    const tokens = judgeRequestTokens({ kind: 'topic-label', prompt: opening, options: ['Storage', 'none'] });
    expect(tokens).toBeGreaterThanOrEqual(opening.length);
  });
});
