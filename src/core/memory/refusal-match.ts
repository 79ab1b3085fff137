import type { Refusal } from '../../../protocol/index.ts';
import { contentWords, normaliseText, words } from './normalise-text.ts';

/**
 * Verbs that only say the person is for something: "I like tabs", "I love tabs" and "I prefer tabs" state one
 * preference, so a refusal of one is a refusal of all.
 */
const PREFERENCE_VERBS = new Set(
  'like likes liked love loves loved prefer prefers preferred enjoy enjoys enjoyed adore adores favour favours favor favors fond'.split(
    ' ',
  ),
);

/** The words a refusal compares: content words (see contentWords) without preference verbs. */
function refusalWords(text: string): Set<string> {
  return new Set([...contentWords(text)].filter((word) => !PREFERENCE_VERBS.has(word)));
}

/** Words that turn a statement around: "I don't like tabs" and "I hate tabs" say the opposite of "I like tabs". */
const OPPOSITE_WORDS = /^(?:not|no|never|hate|hates|hated|dislike|dislikes|disliked|cannot|.*n't)$/;

function negated(text: string): boolean {
  return words(text).some((word) => OPPOSITE_WORDS.test(word));
}

function subsetOf(small: ReadonlySet<string>, large: ReadonlySet<string>): boolean {
  return small.size > 0 && [...small].every((word) => large.has(word));
}

/**
 * The refusal a fact runs into, or null. A taken-back line matches its own text (normalised) and any rewording
 * whose content words are a subset or a superset of its own, preference verbs counted as one: "I prefer tabs for
 * indentation." deleted also refuses "I prefer tabs." and "The user prefers tabs, always"; "I like tabs." deleted
 * refuses "I love tabs.". A topic matches the same way. Erring towards refusal is deliberate: a deletion that
 * comes back is the failure people remember. The one exception: when exactly one of the two texts is negated
 * ("I like tabs." deleted, "I don't like tabs." or "I hate tabs." stated) it says the opposite, so only the exact
 * text matches.
 */
export function matchesRefusal(refusals: readonly Refusal[], factText: string): Refusal | null {
  const normal = normaliseText(factText);
  const factWords = refusalWords(factText);
  for (const refusal of refusals) {
    if (normaliseText(refusal.text) === normal) return refusal;
    if (negated(refusal.text) !== negated(factText)) continue;
    const refusedWords = refusalWords(refusal.text);
    if (subsetOf(refusedWords, factWords) || subsetOf(factWords, refusedWords)) return refusal;
  }
  return null;
}
