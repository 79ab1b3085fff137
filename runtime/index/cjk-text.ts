/**
 * Han, kana, Hangul (and their compatibility forms), the supplementary Han planes through their surrogates.
 * Written as plain ranges (no `u` flag, no property escapes): the writer tests every turn's text with it.
 */
const CJK_CHARACTER =
  /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]|[\ud840-\ud87f]/;

/**
 * Whether a text holds CJK characters. The word tokenizer (unicode61) makes a whole run of them one token,
 * so such a text is also kept in the trigram table, where any substring of it can be found.
 */
export function hasCjk(text: string): boolean {
  return CJK_CHARACTER.test(text);
}
