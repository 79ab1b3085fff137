import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../protocol/index.ts';
import { appendEvent, type EventDraft } from '../event-log.ts';
import { describeJournalEntry, journalEntryEvidence, journalPage, journalVerdictOf } from './journal-entry.ts';

let clock = 1_000;
let ids = 0;
function log(drafts: EventDraft[], into: EventRecord[] = []): EventRecord[] {
  for (const draft of drafts) into.push(appendEvent(into, draft, { now: (clock += 10), newId: () => `e${++ids}` }));
  return into;
}
const judged = (verdict: 'admitted' | 'refused', nodeId = 'n1'): EventDraft => ({
  op: 'memory-judged',
  objectId: nodeId,
  meta: {
    verdict,
    reason: verdict === 'refused' ? 'not-durable' : null,
    category: 'preference',
    path: 'rule',
    canvasId: 'c1',
    commitHash: 'h',
  },
});

describe('memory journal entries', () => {
  it('names what each event decided, in a sentence, with the turn it rests on', () => {
    const events = log([
      judged('refused'),
      {
        op: 'memory-written',
        objectId: 'l2',
        meta: { document: 'preferences', operation: 'replace', replaced: 1, canvasId: 'c1' },
      },
      { op: 'memory-undone', objectId: 'l2', meta: { lines: 1, refusalId: 'r1' } },
      { op: 'memory-edited', objectId: 'l3', meta: { action: 'delete', document: 'identity' } },
      { op: 'topic-merged', objectId: 't1', meta: { from: 't2', labels: 3 } },
    ]);
    expect(events.map(journalVerdictOf)).toEqual(['refused', 'superseded', 'undone', 'deleted', 'superseded']);
    expect(describeJournalEntry({ journal: 'profile', index: 0, verdict: 'refused', event: events[0]! })).toBe(
      'A preference fact from an ask was refused: it was a request or a passing state, nothing lasting about you.',
    );
    expect(journalEntryEvidence(events[0]!)).toEqual({ canvasId: 'c1', nodeId: 'n1' });
    expect(journalEntryEvidence(events[1]!)).toEqual({ canvasId: 'c1', nodeId: null });
    expect(journalEntryEvidence(events[2]!)).toBeNull();
  });

  it('pages newest first across both journals; entries appended between pages neither repeat nor shift the next', () => {
    const profile = log([judged('admitted'), judged('refused'), judged('admitted')]);
    const topics = log([{ op: 'topic-created', objectId: 't1', meta: { topics: 1 } }]);
    const query = { cursor: null, limit: 2, verdict: null, op: null };
    const first = journalPage({ profile, topics }, query);
    expect(first.entries.map((entry) => entry.event)).toEqual([topics[0], profile[2]]);
    log([judged('refused')], profile);
    const second = journalPage({ profile, topics }, { ...query, cursor: first.nextCursor });
    expect(second.entries.map((entry) => entry.event)).toEqual([profile[1], profile[0]]);
    expect(second.nextCursor).toBeNull();
    const refused = journalPage({ profile, topics }, { ...query, verdict: 'refused', limit: 10 });
    expect(refused.entries.map((entry) => [entry.journal, entry.index])).toEqual([
      ['profile', 3],
      ['profile', 1],
    ]);
  });
});
