import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../hashing.ts';
import { admitFact } from './admit-fact.ts';
import { mergeFact } from './merge-fact.ts';
import { addLine } from './person-edits.ts';
import { emptyProfile } from './profile.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';
import { undoWrites } from './undo-writes.ts';
import type { MemoryProfile } from '../../../protocol/index.ts';

function write(profile: MemoryProfile, text: string, context: ReturnType<typeof testContext>) {
  const verdict = admitFact(testCandidate(text, text), testExchange(text), profile, 0);
  if (!verdict.admitted) throw new Error(`expected admission of ${text}`);
  const merged = mergeFact(profile, verdict.fact, null, context);
  if (!merged.ok) throw new Error('expected merge');
  return merged.value;
}

describe('undoWrites', () => {
  it('restores the documents byte for byte and refuses every line the exchange wrote', () => {
    const context = testContext();
    const before = addLine(emptyProfile(), 'identity', 'Works nights.', context);
    if (!before.ok) throw new Error('expected add');
    const first = write(before.value.profile, 'I prefer tabs over spaces.', context);
    const second = write(first.profile, 'I use Linux at home.', context);
    const undone = undoWrites(
      before.value.profile,
      second.profile,
      second.profile,
      [first.lineId!, second.lineId!],
      context,
    );
    if (!undone.ok) throw new Error('expected undo');
    expect(canonicalJson(undone.value.profile.documents)).toBe(canonicalJson(before.value.profile.documents));
    expect(undone.value.refusals.map((refusal) => [refusal.kind, refusal.text])).toEqual([
      ['undone-admission', 'I prefer tabs over spaces.'],
      ['undone-admission', 'I use Linux at home.'],
    ]);
    expect(undone.value.profile.refusals).toEqual(undone.value.refusals);
    expect(undone.value.events.map((event) => event.op)).toEqual([
      'memory-undone',
      'memory-refused-by-person',
      'memory-refused-by-person',
    ]);
  });

  it('refuses when the profile moved on since the write', () => {
    const context = testContext();
    const written = write(emptyProfile(), 'I prefer tabs over spaces.', context);
    const later = addLine(written.profile, 'identity', 'Works nights.', context);
    if (!later.ok) throw new Error('expected add');
    expect(undoWrites(emptyProfile(), written.profile, later.value.profile, [written.lineId!], context)).toEqual({
      ok: false,
      error: 'changed-since',
    });
  });
});
