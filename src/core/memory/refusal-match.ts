import type { Refusal } from '../../../protocol/index.ts';
import { contentWords, normaliseText } from './normalise-text.ts';

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

function subsetOf(small: ReadonlySet<string>, large: ReadonlySet<string>): boolean {
  return small.size > 0 && [...small].every((word) => large.has(word));
}

/**
 * The refusal a fact runs into, or null. A taken-back line matches its own text (normalised) and any rewording
 * whose content words are a subset or a superset of its own, preference verbs counted as one: "I prefer tabs for
 * indentation." deleted also refuses "I prefer tabs." and "The user prefers tabs, always"; "I like tabs." deleted
 * refuses "I love tabs.". A topic matches the same way. Erring towards refusal is deliberate: a deletion that
 * comes back is the failure people remember.
 */
export function matchesRefusal(refusals: readonly Refusal[], factText: string): Refusal | null {
  const normal = normaliseText(factText);
  const factWords = refusalWords(factText);
  for (const refusal of refusals) {
    if (normaliseText(refusal.text) === normal) return refusal;
    const refusedWords = refusalWords(refusal.text);
    if (subsetOf(refusedWords, factWords) || subsetOf(factWords, refusedWords)) return refusal;
  }
  return null;
}
