/**
 * The questions `bench:recall` asks, and `bench:memory`'s put-aside figures ask the same: up to 50 rare phrases of
 * the corpus, spread over it, each among common words, with a typo (two letters swapped) in every fifth.
 */
export function recallQuestions(phrases: readonly string[]): string[] {
  return phrases
    .filter((_, position) => position % Math.max(1, Math.floor(phrases.length / 50)) === 0)
    .slice(0, 50)
    .map((phrase, position) => {
      const typed = position % 5 === 0 ? phrase.replace(/(\w)(\w)(\w*)$/, '$2$1$3') : phrase;
      return `What did we decide about ${typed} when we changed the file?`;
    });
}
