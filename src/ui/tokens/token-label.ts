import type { TokenCounter } from './token-counter.ts';

/** `1,234` when counted by the model's tokenizer, `≈1,234` when estimated. */
export function formatTokens(tokens: number, counter: Pick<TokenCounter, 'exact'>): string {
  return `${counter.exact ? '' : '≈'}${tokens.toLocaleString()}`;
}
