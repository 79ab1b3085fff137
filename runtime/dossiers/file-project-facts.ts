import type { MemoryActivity } from '../../protocol/index.ts';
import { canvasLabelKey, matchTopicsByName } from '../../src/core/topics/index.ts';
import type { TopicStore } from '../topics/index.ts';
import type { DossierStore } from './dossier-store.ts';

/**
 * Files the project facts the memory judge admitted (C14 → C15): each goes to every topic its exchange's turn is
 * labelled with; a turn not labelled yet files the fact to the topics its own words name; the general inbox takes
 * a fact no topic claims. Returns how many rows were filed.
 */
export async function fileProjectFacts(
  store: DossierStore,
  topics: TopicStore,
  exchange: { canvasId: string; nodeId: string; versionId: string },
  activity: readonly MemoryActivity[],
): Promise<number> {
  const facts = activity.filter(
    (entry) => entry.kind === 'admitted' && entry.reason === 'project-dossier' && entry.text !== null,
  );
  if (facts.length === 0) return 0;
  const turnKey = canvasLabelKey(exchange.canvasId, exchange.nodeId, exchange.versionId);
  const { record } = await topics.read();
  const live = new Set(record.topics.map((topic) => topic.id));
  const label = record.labels.find((each) => each.turnKey === turnKey);
  const labelled = (label?.topicIds ?? []).filter((id) => live.has(id));
  let filed = 0;
  for (const fact of facts) {
    // The exchange just judged is a new version, so usually not labelled yet: then the fact's own words decide,
    // by the judge-less rule (a topic's name as whole words), and only an unclaimed fact waits in the inbox.
    const topicIds = label ? labelled : matchTopicsByName(fact.text!, record.topics);
    filed += store.fileFact({ text: fact.text!, turnKey, topicIds }).length;
  }
  return filed;
}
