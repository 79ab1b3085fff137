// src/ui/tokens: token counts per model — exact with a public tokenizer (gpt-tokenizer, loaded lazily), else ≈.
export { tokenizerEncodingFor } from './token-encoding.ts';
export type { TokenizerEncoding } from './token-encoding.ts';
export {
  APPROXIMATE_COUNTER,
  loadTokenizer,
  subscribeTokenizers,
  tokenCounterFor,
  tokenizersVersion,
} from './token-counter.ts';
export type { TokenCounter } from './token-counter.ts';
export { useTokenizersVersion } from './use-token-counters.ts';
export { formatTokens } from './token-label.ts';
