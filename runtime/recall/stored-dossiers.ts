import { DOSSIER_SECTIONS, type Dossier, type TopicRecord } from '../../protocol/index.ts';
import { versionStandingAt } from '../../src/core/dossiers/index.ts';
import type { DossierSource, RecallDossier } from '../../src/core/recall/index.ts';
import type { DossierStore } from '../dossiers/index.ts';

/**
 * The dossier store as recall's `DossierSource` (C15 → C16): each topic's current dossier with its topic's name,
 * every sentence with its citations. Nothing is filtered here: the planner leaves out a sentence whose sources are
 * all archived or deleted and lists it as omitted, so the person sees why. With `asOf` (#29.4, a node dated "as
 * of"), each topic's dossier as it stood then: its newest version written by that time (none yet: no dossier).
 * A sentence a later version replaced or dropped is served as of a time it stood; a put-aside one never is.
 */
export function storedDossiers(
  store: Pick<DossierStore, 'read' | 'history' | 'version'>,
  topics: TopicRecord,
): DossierSource {
  const names = new Map(topics.topics.map((topic) => [topic.id, topic.name]));
  const standing = (topicId: string, asOf: number | null): Dossier | null => {
    if (asOf === null) return store.read(topicId);
    // The same version core's `sentenceValidity` intervals say held then (the panel's "holds since").
    const then = versionStandingAt(store.history(topicId), asOf);
    return then ? (store.version(topicId, then.version)?.dossier ?? null) : null;
  };
  return {
    dossiersFor(topicIds, asOf = null) {
      const found: RecallDossier[] = [];
      for (const topicId of topicIds) {
        const name = names.get(topicId);
        const dossier = name === undefined ? null : standing(topicId, asOf);
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
