import type { SetAnswerUsage, Usage } from '../../protocol/index.ts';

/** A model's prices in US dollars per million tokens, in and out; null where the model has no price. */
export interface TokenPrices {
  pricePerMTokIn: number | null;
  pricePerMTokOut: number | null;
}

/**
 * Issue 31, part 2: what one answer of a model set cost — its wall time, the tokens the provider reported and their
 * price. The price is null unless both counts and both prices are known: a partial sum would read as the whole cost.
 */
export function setAnswerUsage(latencyMs: number, usage: Usage | null, prices: TokenPrices | null): SetAnswerUsage {
  const inputTokens = usage?.inputTokens ?? null;
  const outputTokens = usage?.outputTokens ?? null;
  const priced =
    inputTokens !== null && outputTokens !== null && prices?.pricePerMTokIn != null && prices.pricePerMTokOut != null;
  return {
    latencyMs: Math.max(0, latencyMs),
    inputTokens,
    outputTokens,
    costUsd: priced
      ? (inputTokens * prices.pricePerMTokIn! + outputTokens * prices.pricePerMTokOut!) / 1_000_000
      : null,
  };
}
