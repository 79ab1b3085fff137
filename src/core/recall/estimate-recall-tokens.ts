/** One CJK character (Han, kana, Hangul): tokenizers give each about one token, not a quarter. */
const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * The recall budget's token estimate (C16): each CJK character counts as one token and the rest of the text as
 * four characters a token. The plain length estimate counts CJK at a quarter of its cost, so a CJK-heavy block
 * would run four times past its ceiling. Counted on the server, which does not know the answering model's
 * tokenizer; it never counts less than the length estimate.
 */
export function estimateRecallTokens(text: string): number {
  let characters = 0;
  let units = 0;
  for (const match of text.matchAll(CJK_CHARACTER)) {
    characters += 1;
    units += match[0].length;
  }
  return characters + Math.ceil((text.length - units) / 4);
}
