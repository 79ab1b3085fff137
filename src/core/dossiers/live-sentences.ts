import { DOSSIER_SECTIONS, type Dossier, type DossierSentence } from '../../../protocol/index.ts';

/** Whether a turn key still names a live turn (not archived, not deleted). Supplied by the caller. */
export type IsLive = (turnKey: string) => boolean;

/** Every sentence of a dossier, section by section, in order. */
export function dossierSentences(dossier: Pick<Dossier, 'sections'>): DossierSentence[] {
  return DOSSIER_SECTIONS.flatMap((section) => dossier.sections[section]);
}

/** A sentence lives while at least one of its sources does (C15). */
export function sentenceIsLive(sentence: DossierSentence, isLive: IsLive): boolean {
  return sentence.citations.some((key) => isLive(key));
}

/**
 * The dossier with every sentence whose sources are all archived or deleted left out: what recall (C16) may
 * bring into an ask. Sections keep their order; the version and the rest are unchanged.
 */
export function liveSentences(dossier: Dossier, isLive: IsLive): Dossier {
  const sections = { ...dossier.sections };
  for (const section of DOSSIER_SECTIONS)
    sections[section] = dossier.sections[section].filter((sentence) => sentenceIsLive(sentence, isLive));
  return { ...dossier, sections };
}

/** The ids of the sentences `liveSentences` leaves out: the ones the dossier view marks. */
export function retiredSentences(dossier: Dossier, isLive: IsLive): string[] {
  return dossierSentences(dossier)
    .filter((sentence) => !sentenceIsLive(sentence, isLive))
    .map((sentence) => sentence.id);
}
