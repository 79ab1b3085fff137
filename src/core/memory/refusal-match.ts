import type { Refusal } from '../../../protocol/index.ts';
import { contentWords, normaliseText } from './normalise-text.ts';

/**
 * The refusal a fact runs into, or null. A taken-back line matches its own text (normalised) and any rewording
 * that keeps all of its content words ("I prefer tabs" deleted also refuses "The user prefers tabs" and
 * "Prefers tabs, always"); a topic matches any fact containing all of the topic's content words. Erring towards
 * refusal is deliberate: a deletion that comes back is the failure people remember.
 */
export function matchesRefusal(refusals: readonly Refusal[], factText: string): Refusal | null {
  const normal = normaliseText(factText);
  const factWords = contentWords(factText);
  for (const refusal of refusals) {
    if (normaliseText(refusal.text) === normal) return refusal;
    const refusedWords = contentWords(refusal.text);
    if (refusedWords.size === 0) continue;
    if ([...refusedWords].every((word) => factWords.has(word))) return refusal;
  }
  return null;
}
