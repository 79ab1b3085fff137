import type { LabelRemoval, TopicRecord } from '../../../protocol/index.ts';
import type { HashPort } from '../hash-port.ts';
import type { EventDraft } from '../event-log.ts';
import { failure, success, type Result } from '../result.ts';

export type LabelRemovalCode = 'unknown-topic' | 'not-labelled';

/** What a person's removal is tied to: the turn's opening alone (the topic set may change; the turn did not). */
export function openingHash(opening: string, hash: HashPort): string {
  return hash.sha256Hex(opening);
}

/**
 * The person says a turn is not about a topic (C15): the topic leaves the turn's label now (so the dossier's next
 * update no longer reads it) and a removal is kept, so no labelling run gives it back while the turn is unchanged.
 */
export function removeLabel(
  record: TopicRecord,
  topicId: string,
  turnKey: string,
  now: number,
): Result<{ record: TopicRecord; event: EventDraft }, LabelRemovalCode> {
  if (!record.topics.some((topic) => topic.id === topicId)) return failure('unknown-topic');
  const label = record.labels.find((candidate) => candidate.turnKey === turnKey);
  if (!label?.topicIds.includes(topicId)) return failure('not-labelled');
  const removal: LabelRemoval = { turnKey, topicId, openingHash: label.openingHash ?? null, at: now };
  return success({
    record: {
      ...record,
      labels: record.labels.map((candidate) =>
        candidate === label ? { ...label, topicIds: label.topicIds.filter((id) => id !== topicId) } : candidate,
      ),
      removed: [
        ...(record.removed ?? []).filter((known) => known.turnKey !== turnKey || known.topicId !== topicId),
        removal,
      ],
    },
    event: { op: 'topic-label-removed', objectId: topicId, meta: { turnKey } },
  });
}

/** The topics a run found for a turn, less those the person removed from it while its opening is unchanged. */
export function withoutRemoved(
  record: TopicRecord,
  turnKey: string,
  turnOpeningHash: string | undefined,
  topicIds: readonly string[],
): string[] {
  const removed = new Set(
    (record.removed ?? [])
      .filter(
        (removal) =>
          removal.turnKey === turnKey && (removal.openingHash === null || removal.openingHash === turnOpeningHash),
      )
      .map((removal) => removal.topicId),
  );
  return topicIds.filter((id) => !removed.has(id));
}

/** A topic gone (deleted, or merged into another) takes its removals with it. */
export function dropRemovals(record: TopicRecord, topicId: string): TopicRecord {
  if (!record.removed) return record;
  return { ...record, removed: record.removed.filter((removal) => removal.topicId !== topicId) };
}
