import type { Topic, TopicRecord } from '../../../protocol/index.ts';
import type { EventDraft } from '../event-log.ts';
import { failure, success, type Result } from '../result.ts';
import { dropRemovals } from './label-removal.ts';

/** At most this many topics: the decision endpoint takes 50 options, one of them `none`. */
export const MAX_TOPICS = 49;
export const MAX_TOPIC_NAME = 80;

export type TopicEditCode =
  'empty-name' | 'name-too-long' | 'duplicate-name' | 'unknown-topic' | 'merge-into-self' | 'too-many';

export interface TopicEdit {
  record: TopicRecord;
  event: EventDraft;
}

export function emptyTopicRecord(): TopicRecord {
  return { format: 'weft.topics', topics: [], labels: [] };
}

/** A name is trimmed with inner whitespace runs made one space; names are unique regardless of case. */
function cleanName(record: TopicRecord, raw: string, exceptId: string | null): Result<string, TopicEditCode> {
  const name = raw.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  if (name === '') return failure('empty-name');
  if (name.length > MAX_TOPIC_NAME) return failure('name-too-long');
  const folded = name.toLocaleLowerCase();
  if (record.topics.some((topic) => topic.id !== exceptId && topic.name.toLocaleLowerCase() === folded))
    return failure('duplicate-name');
  return success(name);
}

export function createTopic(
  record: TopicRecord,
  rawName: string,
  context: { now: number; newId: () => string },
): Result<TopicEdit & { topic: Topic }, TopicEditCode> {
  if (record.topics.length >= MAX_TOPICS) return failure('too-many');
  const name = cleanName(record, rawName, null);
  if (!name.ok) return name;
  const topic: Topic = { id: context.newId(), name: name.value, createdAt: context.now };
  return success({
    record: { ...record, topics: [...record.topics, topic] },
    topic,
    event: { op: 'topic-created', objectId: topic.id, meta: { topics: record.topics.length + 1 } },
  });
}

export function renameTopic(record: TopicRecord, id: string, rawName: string): Result<TopicEdit, TopicEditCode> {
  if (!record.topics.some((topic) => topic.id === id)) return failure('unknown-topic');
  const name = cleanName(record, rawName, id);
  if (!name.ok) return name;
  return success({
    record: {
      ...record,
      topics: record.topics.map((topic) => (topic.id === id ? { ...topic, name: name.value } : topic)),
    },
    event: { op: 'topic-renamed', objectId: id, meta: {} },
  });
}

/** `from`'s labels become `into`'s (a turn labelled with both keeps one); `from` is gone, `into` keeps its id. */
export function mergeTopic(record: TopicRecord, fromId: string, intoId: string): Result<TopicEdit, TopicEditCode> {
  if (fromId === intoId) return failure('merge-into-self');
  if (!record.topics.some((topic) => topic.id === fromId) || !record.topics.some((topic) => topic.id === intoId))
    return failure('unknown-topic');
  let moved = 0;
  const labels = record.labels.map((label) => {
    if (!label.topicIds.includes(fromId)) return label;
    moved += 1;
    const topicIds = [...new Set(label.topicIds.map((id) => (id === fromId ? intoId : id)))];
    return { ...label, topicIds };
  });
  return success({
    record: dropRemovals({ ...record, topics: record.topics.filter((topic) => topic.id !== fromId), labels }, fromId),
    event: { op: 'topic-merged', objectId: intoId, meta: { from: fromId, labels: moved } },
  });
}

/** The topic and every label naming it go; other topics' labels stay as they are. */
export function deleteTopic(record: TopicRecord, id: string): Result<TopicEdit, TopicEditCode> {
  if (!record.topics.some((topic) => topic.id === id)) return failure('unknown-topic');
  let removed = 0;
  const labels = record.labels.map((label) => {
    if (!label.topicIds.includes(id)) return label;
    removed += 1;
    return { ...label, topicIds: label.topicIds.filter((topicId) => topicId !== id) };
  });
  return success({
    record: dropRemovals({ ...record, topics: record.topics.filter((topic) => topic.id !== id), labels }, id),
    event: { op: 'topic-deleted', objectId: id, meta: { labels: removed } },
  });
}

/** A topic by id, or by name regardless of case (what the CLI is given). */
export function findTopic(record: TopicRecord, idOrName: string): Topic | undefined {
  const folded = idOrName.trim().toLocaleLowerCase();
  return (
    record.topics.find((topic) => topic.id === idOrName) ??
    record.topics.find((topic) => topic.name.toLocaleLowerCase() === folded)
  );
}
