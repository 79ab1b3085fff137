import { describe, expect, it } from 'vitest';
import { setAnswerUsage } from './set-answer-usage.ts';

describe('setAnswerUsage', () => {
  it('prices the reported tokens at the model’s prices in and out', () => {
    const usage = setAnswerUsage(
      1234,
      { inputTokens: 2_000, outputTokens: 500 },
      {
        pricePerMTokIn: 3,
        pricePerMTokOut: 15,
      },
    );
    expect(usage).toEqual({ latencyMs: 1234, inputTokens: 2_000, outputTokens: 500, costUsd: 0.0135 });
  });

  it('gives no price when a count or a price is unknown, rather than a partial sum', () => {
    expect(
      setAnswerUsage(10, { inputTokens: 100, outputTokens: null }, { pricePerMTokIn: 1, pricePerMTokOut: 2 }),
    ).toMatchObject({ inputTokens: 100, outputTokens: null, costUsd: null });
    expect(
      setAnswerUsage(10, { inputTokens: 100, outputTokens: 5 }, { pricePerMTokIn: 1, pricePerMTokOut: null }),
    ).toMatchObject({ costUsd: null });
    expect(setAnswerUsage(10, null, null)).toEqual({
      latencyMs: 10,
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
    });
  });
});
