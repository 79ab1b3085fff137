import { DOSSIER_SECTIONS, type Dossier } from '../../../protocol/index.ts';
import { dossierSentences } from './live-sentences.ts';

/** Whether a sentence's words are under a `dossier-sentence` tombstone (core `isPutAside`). Supplied by the caller. */
export type IsStruck = (text: string) => boolean;

/**
 * The dossier without the sentences the person struck (issue 29.2). Keyed on the words, not the sentence id: a
 * later update that writes the same sentence again, under any id, is left out too. Sections keep their order.
 */
export function withoutStruck(dossier: Dossier, isStruck: IsStruck): Dossier {
  const sections = { ...dossier.sections };
  for (const section of DOSSIER_SECTIONS)
    sections[section] = dossier.sections[section].filter((sentence) => !isStruck(sentence.text));
  return { ...dossier, sections };
}

/** How many of the dossier's sentences are struck (the view says so instead of dropping them silently). */
export function struckCount(dossier: Dossier, isStruck: IsStruck): number {
  return dossierSentences(dossier).filter((sentence) => isStruck(sentence.text)).length;
}
