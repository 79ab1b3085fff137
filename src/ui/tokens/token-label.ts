import type { TokenCounter } from './token-counter.ts';

// One formatter for every label: `toLocaleString` builds a new one per call (≈ 0.4 ms each, 15 of them per open of
// a large will-send preview).
const NUMBER = new Intl.NumberFormat();

/** `1,234` when counted by the model's tokenizer, `≈1,234` when estimated. */
export function formatTokens(tokens: number, counter: Pick<TokenCounter, 'exact'>): string {
  return `${counter.exact ? '' : '≈'}${NUMBER.format(tokens)}`;
}
