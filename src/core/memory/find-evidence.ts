import type { Exchange, PersonText } from './exchange.ts';
import { normaliseText, words } from './normalise-text.ts';

/**
 * A span shorter than this many words cannot carry a fact on its own ("tabs", "I am"), and short spans match
 * anywhere by accident, so they are refused.
 */
export const MIN_SPAN_WORDS = 3;

export type EvidenceCode = 'span-too-short' | 'span-not-found' | 'no-own-words';

export type EvidenceVerdict =
  { ok: true; span: string; source: PersonText } | { ok: false; code: EvidenceCode; foundIn: readonly string[] };

/**
 * Finds `span` verbatim (after `normaliseText`) in what the person wrote in this exchange. A span that occurs
 * only in the answer, a recall block, a mirrored turn, a material or the `[Memory]` block is `no-own-words`,
 * wherever else it occurs; `foundIn` names those kinds so the activity can say why.
 */
export function findEvidence(exchange: Exchange, span: string): EvidenceVerdict {
  const needle = normaliseText(span);
  if (words(needle).length < MIN_SPAN_WORDS) return { ok: false, code: 'span-too-short', foundIn: [] };
  const source = exchange.person.find((text) => normaliseText(text.text).includes(needle));
  if (source) return { ok: true, span: span.trim(), source };
  const foundIn = [
    ...new Set(exchange.other.filter((text) => normaliseText(text.text).includes(needle)).map((text) => text.kind)),
  ];
  return { ok: false, code: foundIn.length > 0 ? 'no-own-words' : 'span-not-found', foundIn };
}
