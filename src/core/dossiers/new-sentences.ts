import { DOSSIER_SECTIONS, type Dossier, type DossierSectionName } from '../../../protocol/index.ts';
import { normaliseText } from '../memory/normalise-text.ts';
import { dossierSentences } from './live-sentences.ts';

/** A sentence a run wrote that the dossier did not hold: what waits for review when new sentences are not accepted. */
export interface NewSentence {
  section: DossierSectionName;
  text: string;
  citations: string[];
}

/**
 * Splits a written dossier into what the current one already said (by normalised words, so an update or a rebuild
 * restating an accepted sentence needs no second review) and the sentences new to it (issue 29.1). The dossier
 * returned keeps only the former; sections keep their order.
 */
export function splitNewSentences(
  written: Dossier,
  current: Dossier | null,
): { dossier: Dossier; fresh: NewSentence[] } {
  const known = new Set(current ? dossierSentences(current).map((sentence) => normaliseText(sentence.text)) : []);
  const fresh: NewSentence[] = [];
  const sections = { ...written.sections };
  for (const section of DOSSIER_SECTIONS)
    sections[section] = written.sections[section].filter((sentence) => {
      if (known.has(normaliseText(sentence.text))) return true;
      fresh.push({ section, text: sentence.text, citations: sentence.citations });
      return false;
    });
  return { dossier: { ...written, sections }, fresh };
}
