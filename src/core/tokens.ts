/** Counts tokens for the per-layer estimate; runtime may pass a real tokenizer. */
export type EstimateTokens = (text: string) => number;

/**
 * Default estimate: one token per four UTF-16 code units, rounded up. It is the usual rule of
 * thumb for English prose with BPE tokenizers (within ~20%), costs nothing, and is deterministic.
 */
export const estimateTokensByLength: EstimateTokens = (text) => Math.ceil(text.length / 4);
