import type { CandidateFact } from './candidate-fact.ts';
import type { Exchange } from './exchange.ts';
import { MIN_SPAN_WORDS } from './find-evidence.ts';
import { firstPersonCategory } from './first-person.ts';
import { words } from './normalise-text.ts';

/** A sentence longer than this is a paragraph, not a fact; the rule path leaves it to a judge. */
const MAX_RULE_SENTENCE = 240;

/**
 * The rule path, used when no judge answers: every first-person statement of preference, identity or project in
 * the person's own words becomes a candidate whose text and span are that sentence, verbatim and `stated`.
 * Questions ("Do I prefer…?") state nothing; sentences under MIN_SPAN_WORDS words are skipped; the answer and other texts are never read.
 * The constitution still rules on each candidate.
 */
export function ruleDecide(exchange: Exchange): CandidateFact[] {
  const candidates: CandidateFact[] = [];
  for (const text of exchange.person) {
    for (const sentence of sentencesOf(text.text)) {
      if (sentence.endsWith('?') || sentence.length > MAX_RULE_SENTENCE) continue;
      // Too short to be evidence ("I'm Portuguese."): the constitution would refuse it, so it is not proposed.
      if (words(sentence).length < MIN_SPAN_WORDS) continue;
      const category = firstPersonCategory(sentence);
      if (category === null) continue;
      candidates.push({ text: sentence, category, span: sentence, stated: true, updates: null, path: 'rule' });
    }
  }
  return candidates;
}

/** Sentences of one text: split after . ! ? and at line breaks, trimmed, empty ones dropped. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\r?\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}
