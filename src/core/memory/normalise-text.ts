const ASCII = /^[\x00-\x7f]*$/;

/**
 * How memory compares text (evidence spans, duplicates, refusals). Documented in README.md:
 * Unicode NFKC (full-width and compatibility forms fold to plain ones), typographic quotes and apostrophes become
 * ASCII ones, lower case (locale-independent), every run of whitespace becomes one space, ends trimmed.
 * Punctuation is kept: a span is verbatim apart from spacing and case.
 */
export function normaliseText(text: string): string {
  // Plain ASCII is its own NFKC form and holds no typographic quotes: only case and spacing change (the put-aside
  // check normalises every candidate of a recall plan, so this path is measured in `bench:memory`).
  if (ASCII.test(text)) return text.toLowerCase().replace(/\s+/g, ' ').trim();
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Words as memory counts them: runs of letters, digits and apostrophes. */
export function words(text: string): string[] {
  return normaliseText(text).match(/[\p{L}\p{N}']+/gu) ?? [];
}

/** Function words that carry no fact, so "I prefer tabs" and "The user prefers tabs" share their content. */
const FUNCTION_WORDS = new Set([
  'i',
  "i'm",
  "i'd",
  "i've",
  'me',
  'my',
  'mine',
  'am',
  'is',
  'are',
  'was',
  'be',
  'the',
  'a',
  'an',
  'to',
  'of',
  'and',
  'or',
  'in',
  'on',
  'for',
  'with',
  'that',
  'this',
  'user',
  "user's",
  'person',
  "person's",
  'they',
  'their',
  'he',
  'she',
  'his',
  'her',
  'prefer',
  'prefers',
  'preferred',
  'please',
  'always',
  'really',
]);

/** The words of `text` that carry its content, as a set (see FUNCTION_WORDS). */
export function contentWords(text: string): Set<string> {
  return new Set(words(text).filter((word) => !FUNCTION_WORDS.has(word)));
}
