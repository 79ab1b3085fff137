import { DOSSIER_SECTIONS, type TopicRecord } from '../../protocol/index.ts';
import type { DossierSource, RecallDossier } from '../../src/core/recall/index.ts';
import type { DossierStore } from '../dossiers/index.ts';

/**
 * The dossier store as recall's `DossierSource` (C15 → C16): each topic's current dossier with its topic's name,
 * every sentence with its citations. Nothing is filtered here: the planner leaves out a sentence whose sources are
 * all archived or deleted and lists it as omitted, so the person sees why.
 */
export function storedDossiers(store: Pick<DossierStore, 'read'>, topics: TopicRecord): DossierSource {
  const names = new Map(topics.topics.map((topic) => [topic.id, topic.name]));
  return {
    dossiersFor(topicIds) {
      const found: RecallDossier[] = [];
      for (const topicId of topicIds) {
        const name = names.get(topicId);
        const dossier = name === undefined ? null : store.read(topicId);
        if (!dossier || name === undefined) continue;
        found.push({
          topicId,
          topicName: name,
          writtenAt: dossier.writtenAt,
          sentences: DOSSIER_SECTIONS.flatMap((section) =>
            dossier.sections[section].map((sentence) => ({
              id: sentence.id,
              section,
              text: sentence.text,
              citations: sentence.citations,
            })),
          ),
        });
      }
      return found;
    },
  };
}
