import {
  DOSSIER_SECTIONS,
  type Dossier,
  type DossierAnswer,
  type DossierSentence,
  type DroppedSentence,
} from '../../../protocol/index.ts';
import { dossierSentences } from './live-sentences.ts';

export interface CheckedSections {
  sections: Dossier['sections'];
  /** Sentences dropped because they cite a key the model was not shown. */
  dropped: DroppedSentence[];
}

/**
 * Validates every citation against the keys the model was shown (C15): a sentence citing any other key is dropped
 * and counted, never repaired. A sentence keeps its id when it names one of the current dossier's (once); any
 * other gets a new id, so ids stay stable for a sentence's life and never depend on position.
 */
export function checkCitations(
  answer: DossierAnswer,
  shown: ReadonlySet<string>,
  current: Dossier | null,
  newId: () => string,
): CheckedSections {
  const known = new Set(current ? dossierSentences(current).map((sentence) => sentence.id) : []);
  const used = new Set<string>();
  const dropped: DroppedSentence[] = [];
  const sections = { what: [], decisions: [], status: [], open: [] } as Dossier['sections'];
  for (const section of DOSSIER_SECTIONS) {
    const kept: DossierSentence[] = [];
    for (const sentence of answer[section]) {
      const unknownKeys = sentence.citations.filter((key) => !shown.has(key));
      if (unknownKeys.length > 0) {
        dropped.push({ section, text: sentence.text, unknownKeys });
        continue;
      }
      const keep = sentence.id !== undefined && known.has(sentence.id) && !used.has(sentence.id);
      const id = keep ? sentence.id! : newId();
      used.add(id);
      kept.push({ id, text: sentence.text, citations: [...new Set(sentence.citations)] });
    }
    sections[section] = kept;
  }
  return { sections, dropped };
}

/**
 * The model's validated answer (structured output) → the next dossier version, every citation checked against
 * the keys it was shown.
 */
export function dossierFromAnswer(
  answer: DossierAnswer,
  context: {
    topicId: string;
    /** The dossier the run started from (null on a first build or a rebuild: every sentence is new). */
    current: Dossier | null;
    /** The newest stored version (a rebuild still continues the numbering). */
    latestVersion: number;
    shown: ReadonlySet<string>;
    now: number;
    newId: () => string;
  },
): { dossier: Dossier; dropped: DroppedSentence[] } {
  const { sections, dropped } = checkCitations(answer, context.shown, context.current, context.newId);
  return {
    dossier: {
      format: 'weft.dossier',
      topicId: context.topicId,
      version: context.latestVersion + 1,
      writtenAt: context.now,
      sections,
    },
    dropped,
  };
}
