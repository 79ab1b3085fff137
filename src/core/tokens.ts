/** Counts tokens for the per-layer estimate; runtime may pass a real tokenizer. */
export type EstimateTokens = (text: string) => number;

/**
 * Default estimate: one token per four UTF-16 code units, rounded up. It is the usual rule of
 * thumb for English prose with BPE tokenizers (within ~20%), costs nothing, and is deterministic.
 */
export const estimateTokensByLength: EstimateTokens = (text) => Math.ceil(text.length / 4);

/** One CJK character (Han, kana, Hangul): tokenizers give each about one token, not a quarter. */
const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * The estimate for what is priced or budgeted before it is sent (recall's ceiling, dossier and labelling plans):
 * each CJK character counts as one token and the rest of the text as four characters a token. The length estimate
 * counts CJK at a quarter of its cost, so a CJK-heavy request would be priced at a quarter and a CJK-heavy block
 * would run four times past its ceiling. The server does not know the answering model's tokenizer; this never
 * counts less than the length estimate.
 */
export const estimateTokensByScript: EstimateTokens = (text) => {
  let characters = 0;
  let units = 0;
  for (const match of text.matchAll(CJK_CHARACTER)) {
    characters += 1;
    units += match[0].length;
  }
  return characters + Math.ceil((text.length - units) / 4);
};
