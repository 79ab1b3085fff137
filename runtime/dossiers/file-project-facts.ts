import type { MemoryActivity } from '../../protocol/index.ts';
import { canvasLabelKey } from '../../src/core/topics/index.ts';
import type { TopicStore } from '../topics/index.ts';
import type { DossierStore } from './dossier-store.ts';

/**
 * Files the project facts the memory judge admitted (C14 → C15): each goes to every topic its exchange's turn is
 * labelled with, or to the general inbox when no topic claims that turn. Returns how many rows were filed.
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
  const topicIds = (record.labels.find((label) => label.turnKey === turnKey)?.topicIds ?? []).filter((id) =>
    live.has(id),
  );
  let filed = 0;
  for (const fact of facts) filed += store.fileFact({ text: fact.text!, turnKey, topicIds }).length;
  return filed;
}
