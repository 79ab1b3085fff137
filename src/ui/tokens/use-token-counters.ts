import { useSyncExternalStore } from 'react';
import { subscribeTokenizers, tokenizersVersion } from './token-counter.ts';

/** Re-renders the caller when a tokenizer arrives; put the result in the deps of memos that count tokens. */
export function useTokenizersVersion(): number {
  return useSyncExternalStore(subscribeTokenizers, tokenizersVersion);
}
