import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../hashing.ts';
import { admitFact } from './admit-fact.ts';
import { mergeFact } from './merge-fact.ts';
import { addLine, deleteLine, editLine, liftRefusal, refuseTopic, undoWrite } from './person-edits.ts';
import { currentLines, emptyProfile } from './profile.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';

function unwrap<Value>(result: { ok: true; value: Value } | { ok: false; error: string }): Value {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('what the person does on the memory page', () => {
  it('adds, edits and deletes lines; an edit keeps the old words as history', () => {
    const context = testContext();
    const added = unwrap(addLine(emptyProfile(), 'identity', 'Lives in Lyon', context));
    expect(added.events).toEqual([
      { op: 'memory-edited', objectId: 'line-1', meta: { action: 'add', document: 'identity' } },
    ]);
    context.tick();
    const edited = unwrap(editLine(added.profile, 'line-1', 'Lives in Grenoble', context));
    expect(currentLines(edited.profile, 'identity').map((line) => [line.text, line.evidence, line.supersedes])).toEqual(
      [['Lives in Grenoble', 'manual', ['line-1']]],
    );
    expect(edited.profile.documents.identity[0]!.ended).toEqual({ reason: 'replaced', at: 11_000, by: 'line-2' });
    // The words edited away are a refusal, as if deleted: no judge writes them back.
    expect(edited.profile.refusals).toEqual([
      { id: 'line-3', kind: 'deleted-line', text: 'Lives in Lyon', lineId: 'line-1', at: 11_000 },
    ]);
    expect(edited.events.map((event) => event.op)).toEqual(['memory-edited', 'memory-refused-by-person']);
    const exchange = testExchange('Quick one: I live in Lyon these days.');
    const candidate = testCandidate('Lives in Lyon', 'I live in Lyon these days');
    expect(admitFact({ ...candidate, category: 'preference' }, exchange, edited.profile, 0)).toMatchObject({
      reason: 'refused-by-person',
    });
    // A refinement still says the old fact: nothing is refused, so the new line is not both current and refused.
    context.tick();
    const refined = unwrap(editLine(edited.profile, 'line-2', 'Lives in Grenoble, near the station', context));
    expect(refined.profile.refusals).toHaveLength(1);
  });

  it('refuses a credential, an empty line, a duplicate and an unknown line', () => {
    const context = testContext();
    const profile = unwrap(addLine(emptyProfile(), 'preferences', 'Prefers tabs', context)).profile;
    expect(addLine(profile, 'preferences', 'password: hunter2', context)).toEqual({ ok: false, error: 'credential' });
    expect(addLine(profile, 'preferences', '   ', context)).toEqual({ ok: false, error: 'empty' });
    expect(addLine(profile, 'identity', 'prefers TABS', context)).toEqual({ ok: false, error: 'duplicate' });
    expect(editLine(profile, 'line-9', 'x', context)).toEqual({ ok: false, error: 'unknown-line' });
    expect(deleteLine(profile, 'line-9', context)).toEqual({ ok: false, error: 'unknown-line' });
  });

  it('a deletion ends the line, keeps it as history and creates a refusal (metadata-only events)', () => {
    const context = testContext();
    const profile = unwrap(addLine(emptyProfile(), 'preferences', 'Prefers tabs over spaces', context)).profile;
    const deleted = unwrap(deleteLine(profile, 'line-1', context));
    expect(currentLines(deleted.profile, 'preferences')).toEqual([]);
    expect(deleted.profile.documents.preferences[0]!.ended).toEqual({ reason: 'deleted', at: 10_000 });
    expect(deleted.profile.refusals).toEqual([
      { id: 'line-2', kind: 'deleted-line', text: 'Prefers tabs over spaces', lineId: 'line-1', at: 10_000 },
    ]);
    expect(deleted.events.map((event) => event.op)).toEqual(['memory-edited', 'memory-refused-by-person']);
    expect(JSON.stringify(deleted.events)).not.toContain('tabs');
  });

  it('a lifted refusal lets the fact be admitted again', () => {
    const context = testContext();
    const refused = unwrap(refuseTopic(emptyProfile(), 'dark mode', context));
    const exchange = testExchange('I prefer dark mode in every app.');
    const candidate = testCandidate('Prefers dark mode', 'I prefer dark mode');
    expect(admitFact(candidate, exchange, refused.profile, 0)).toMatchObject({ reason: 'refused-by-person' });
    const lifted = unwrap(liftRefusal(refused.profile, refused.refusal.id));
    expect(lifted.events).toEqual([{ op: 'memory-refusal-lifted', objectId: 'line-1', meta: { kind: 'topic' } }]);
    expect(admitFact(candidate, exchange, lifted.profile, 0).admitted).toBe(true);
    expect(liftRefusal(lifted.profile, refused.refusal.id)).toEqual({ ok: false, error: 'unknown-refusal' });
  });

  it('undo restores byte-identical documents and refuses the fact from then on', () => {
    const context = testContext();
    const before = unwrap(addLine(emptyProfile(), 'preferences', 'Prefers short answers', context)).profile;
    const exchange = testExchange('I prefer long detailed answers now.');
    const candidate = testCandidate('Prefers long detailed answers', 'I prefer long detailed answers');
    const verdict = admitFact(candidate, exchange, before, 0);
    if (!verdict.admitted) throw new Error(verdict.reason);
    const written = unwrap(
      mergeFact(
        before,
        verdict.fact,
        { operations: [{ op: 'replace', lineIds: ['line-1'], text: 'Prefers long detailed answers' }] },
        context,
      ),
    );
    const undone = unwrap(undoWrite(before, written.profile, written.profile, written.lineId, context));
    expect(canonicalJson(undone.profile.documents)).toBe(canonicalJson(before.documents));
    expect(undone.refusal).toMatchObject({ kind: 'undone-admission', lineId: written.lineId });
    expect(undone.events.map((event) => event.op)).toEqual(['memory-undone', 'memory-refused-by-person']);
    expect(admitFact(candidate, exchange, undone.profile, 0)).toMatchObject({ reason: 'refused-by-person' });
  });

  it('undo is refused once the profile changed since the write', () => {
    const context = testContext();
    const before = emptyProfile();
    const after = unwrap(addLine(before, 'preferences', 'Prefers tabs over spaces', context));
    const later = unwrap(addLine(after.profile, 'preferences', 'Writes Go', context)).profile;
    expect(undoWrite(before, after.profile, later, after.lineId, context)).toEqual({
      ok: false,
      error: 'changed-since',
    });
    expect(undoWrite(before, after.profile, after.profile, null, context)).toEqual({
      ok: false,
      error: 'nothing-to-undo',
    });
  });
});

describe('bad injected ids never reach the profile', () => {
  it('refuses a refusal with an empty id', () => {
    const profile = unwrap(addLine(emptyProfile(), 'preferences', 'Prefers tabs', testContext())).profile;
    const blank = { now: 1, newId: () => '' };
    expect(deleteLine(profile, 'line-1', blank)).toEqual({ ok: false, error: 'invalid' });
    expect(refuseTopic(profile, 'health', blank)).toEqual({ ok: false, error: 'invalid' });
  });
});
