import { describe, expect, it } from 'vitest';
import { EventRecordSchema } from '../../../protocol/event-record.ts';
import { MemoryEventOpSchema } from '../../../protocol/memory-profile.ts';
import type { EventRecord } from '../../../protocol/event-record.ts';
import { appendEvent, verifyChain } from '../event-log.ts';
import { admitFact } from './admit-fact.ts';
import { mergeFact } from './merge-fact.ts';
import { deleteLine, liftRefusal, undoWrite } from './person-edits.ts';
import { emptyProfile } from './profile.ts';
import type { MemoryEventDraft } from './memory-events.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';

describe('every memory decision is a metadata-only event', () => {
  it('drafts from a whole flow chain into valid event records that never hold the fact’s words', () => {
    const context = testContext();
    const drafts: MemoryEventDraft[] = [];
    const exchange = testExchange('I prefer tabs over spaces. Also my password is hunter2.');
    const refused = admitFact(
      testCandidate('Password is hunter2', 'my password is hunter2'),
      exchange,
      emptyProfile(),
      0,
    );
    drafts.push(refused.event);
    const verdict = admitFact(
      testCandidate('Prefers tabs over spaces', 'I prefer tabs over spaces'),
      exchange,
      emptyProfile(),
      0,
    );
    drafts.push(verdict.event);
    if (!verdict.admitted) throw new Error(verdict.reason);
    const before = emptyProfile();
    const written = mergeFact(before, verdict.fact, null, context);
    if (!written.ok) throw new Error(written.error);
    drafts.push(written.value.event);
    const undone = undoWrite(before, written.value.profile, written.value.profile, written.value.lineId, context);
    if (!undone.ok) throw new Error(undone.error);
    drafts.push(...undone.value.events);
    const lifted = liftRefusal(undone.value.profile, undone.value.refusal.id);
    if (!lifted.ok) throw new Error(lifted.error);
    drafts.push(...lifted.value.events);
    const again = mergeFact(lifted.value.profile, verdict.fact, null, context);
    if (!again.ok) throw new Error(again.error);
    const deleted = deleteLine(again.value.profile, again.value.lineId!, context);
    if (!deleted.ok) throw new Error(deleted.error);
    drafts.push(again.value.event, ...deleted.value.events);

    const log: EventRecord[] = [];
    for (const draft of drafts) log.push(appendEvent(log, draft, { now: context.now, newId: context.newId }));
    expect(log.every((event) => EventRecordSchema.safeParse(event).success)).toBe(true);
    expect(verifyChain(log)).toBeNull();
    expect(log.map((event) => MemoryEventOpSchema.parse(event.op))).toEqual([
      'memory-judged',
      'memory-judged',
      'memory-written',
      'memory-undone',
      'memory-refused-by-person',
      'memory-refusal-lifted',
      'memory-written',
      'memory-edited',
      'memory-refused-by-person',
    ]);
    expect(log[0]!.meta).toMatchObject({ verdict: 'refused', reason: 'credential' });
    const text = JSON.stringify(log);
    for (const word of ['tabs', 'spaces', 'hunter2', 'password']) expect(text.toLowerCase()).not.toContain(word);
  });
});
