import { estimateTokensByLength, type EstimateTokens } from '../../core/index.ts';
import { tokenizerEncodingFor, type TokenizerEncoding } from './token-encoding.ts';

/** How a model's tokens are counted: exactly with its public tokenizer, or estimated (shown with `≈`). */
export interface TokenCounter {
  count: EstimateTokens;
  exact: boolean;
}

export const APPROXIMATE_COUNTER: TokenCounter = { count: estimateTokensByLength, exact: false };

/** Special-token text a person typed (`<|endoftext|>`) is counted as text, never refused. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

// Each encoding is its own chunk (about 1–2 MB of ranks), fetched the first time a model needs it.
const LOADERS: Record<TokenizerEncoding, () => Promise<EstimateTokens>> = {
  o200k_base: async () => {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    return (text) => countTokens(text, AS_TEXT);
  },
  cl100k_base: async () => {
    const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
    return (text) => countTokens(text, AS_TEXT);
  },
};

/** The preview recompiles on every edit; counts of unchanged texts (a long material) are remembered. */
function remembered(count: EstimateTokens, capacity = 2000): EstimateTokens {
  const counts = new Map<string, number>();
  return (text) => {
    const known = counts.get(text);
    if (known !== undefined) return known;
    const counted = count(text);
    if (counts.size >= capacity) counts.delete(counts.keys().next().value!);
    counts.set(text, counted);
    return counted;
  };
}

const loaded = new Map<TokenizerEncoding, TokenCounter>();
const loading = new Map<TokenizerEncoding, Promise<TokenCounter | null>>();
const listeners = new Set<() => void>();
let version = 0;

/** Load a tokenizer (once); resolves null if its chunk cannot be fetched, and the estimate stays. */
export function loadTokenizer(encoding: TokenizerEncoding): Promise<TokenCounter | null> {
  const existing = loading.get(encoding);
  if (existing) return existing;
  const started = LOADERS[encoding]().then(
    (count) => {
      const counter = { count: remembered(count), exact: true };
      loaded.set(encoding, counter);
      version += 1;
      for (const listener of [...listeners]) listener();
      return counter;
    },
    (error: unknown) => {
      console.warn(`[weft] the ${encoding} tokenizer did not load; token counts stay estimates`, error);
      return null;
    },
  );
  loading.set(encoding, started);
  return started;
}

/**
 * The counter for a model id, now: exact once its tokenizer is loaded (this starts the load), the `≈`
 * estimate until then and for every model whose tokenizer is not public.
 */
export function tokenCounterFor(modelId: string): TokenCounter {
  const encoding = tokenizerEncodingFor(modelId);
  if (!encoding) return APPROXIMATE_COUNTER;
  const counter = loaded.get(encoding);
  if (counter) return counter;
  void loadTokenizer(encoding);
  return APPROXIMATE_COUNTER;
}

/** For `useSyncExternalStore`: told whenever a tokenizer finishes loading. */
export function subscribeTokenizers(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function tokenizersVersion(): number {
  return version;
}
