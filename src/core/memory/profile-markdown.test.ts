import { describe, expect, it } from 'vitest';
import { admitFact } from './admit-fact.ts';
import { mergeFact } from './merge-fact.ts';
import { addLine, deleteLine } from './person-edits.ts';
import { importProfile, profileFromMarkdown, profileToMarkdown } from './profile-markdown.ts';
import { emptyProfile } from './profile.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';

function profileWithLine() {
  const context = testContext();
  const verdict = admitFact(
    testCandidate('I prefer tabs over spaces.', 'I prefer tabs over spaces.'),
    testExchange('I prefer tabs over spaces.'),
    emptyProfile(),
    0,
  );
  if (!verdict.admitted) throw new Error('expected admission');
  const merged = mergeFact(emptyProfile(), verdict.fact, null, context);
  if (!merged.ok) throw new Error('expected merge');
  return { profile: merged.value.profile, lineId: merged.value.lineId!, context };
}

describe('profile Markdown', () => {
  it('round-trips the whole record through its front matter and shows provenance in the body', () => {
    const { profile } = profileWithLine();
    const markdown = profileToMarkdown(profile);
    expect(markdown).toContain(
      '- I prefer tabs over spaces. _(stated, canvas canvas-1, node node-1, commit aaaaaaaaaaaa)_',
    );
    const read = profileFromMarkdown(markdown);
    expect(read).toEqual({ ok: true, value: profile });
  });

  it('refuses Markdown without a profile, or with a damaged one, by code', () => {
    expect(profileFromMarkdown('# Notes')).toMatchObject({ ok: false, error: { code: 'not-a-profile' } });
    expect(profileFromMarkdown('---\n{nope\n---\n')).toMatchObject({ ok: false, error: { code: 'corrupt' } });
    expect(profileFromMarkdown('---\n{"format":"weft.memory-profile","version":9}\n---\n')).toMatchObject({
      ok: false,
      error: { code: 'newer-version' },
    });
  });

  it('an import cannot bring back a line the person deleted, not even one typed by hand', () => {
    const { profile, lineId, context } = profileWithLine();
    const exported = profileToMarkdown(profile);
    const deleted = deleteLine(profile, lineId, context);
    if (!deleted.ok) throw new Error('expected delete');
    const read = profileFromMarkdown(exported);
    if (!read.ok) throw new Error('expected read');
    const imported = importProfile(deleted.value.profile, read.value, 99_000);
    if (!imported.ok) throw new Error('expected import');
    expect(imported.value.profile.documents.preferences[0]!.ended).toEqual({ reason: 'deleted', at: 99_000 });
    expect(imported.value.profile.refusals).toEqual(deleted.value.profile.refusals);
    // A line typed by hand that matches a refusal would show both in the profile and in Refused: it is refused too.
    const typed = addLine(read.value, 'identity', 'I prefer tabs over spaces, truly.', context);
    if (!typed.ok) throw new Error('expected add');
    const kept = importProfile(deleted.value.profile, typed.value.profile, 99_000);
    if (!kept.ok) throw new Error('expected import');
    expect(kept.value.profile.documents.identity[0]!.ended).toEqual({ reason: 'deleted', at: 99_000 });
    expect(kept.value.refused.map((entry) => entry.code)).toEqual(['refused-by-person', 'refused-by-person']);
  });

  it('refuses an import that carries a credential, whatever its evidence', () => {
    const { context } = profileWithLine();
    const typed = addLine(emptyProfile(), 'identity', 'Tabs matter.', context);
    if (!typed.ok) throw new Error('expected add');
    const forged = structuredClone(typed.value.profile);
    forged.documents.identity[0]!.text = 'My key is sk-proj-abcdefghijklmnopqrstu';
    expect(importProfile(emptyProfile(), forged, 1)).toEqual({ ok: false, error: 'credential' });
  });

  it('keeps `stated` only when the span is in what the person wrote at its origin, else refuses no-own-words', () => {
    const { profile } = profileWithLine();
    const forged = structuredClone(profile);
    forged.documents.preferences[0]!.text = 'I prefer spaces over tabs.';
    forged.documents.preferences[0]!.span = 'I prefer spaces over tabs.';
    // Unknown origin: nobody can show these were the person's words.
    const unknown = importProfile(emptyProfile(), forged, 5);
    if (!unknown.ok) throw new Error('expected import');
    expect(unknown.value.refused).toEqual([
      { lineId: forged.documents.preferences[0]!.id, text: 'I prefer spaces over tabs.', code: 'no-own-words' },
    ]);
    expect(unknown.value.profile.documents.preferences[0]!.ended).toEqual({ reason: 'deleted', at: 5 });
    // The canvas shows the person asked it: kept as stated.
    const asked = importProfile(emptyProfile(), forged, 5, (origin) =>
      origin.canvasId === 'canvas-1' ? ['Honestly, I prefer spaces over tabs. Why?'] : null,
    );
    if (!asked.ok) throw new Error('expected import');
    expect(asked.value.refused).toEqual([]);
    expect(asked.value.profile.documents.preferences[0]!).toMatchObject({ evidence: 'stated', ended: null });
    // Re-importing the profile exactly as it stands needs no canvas: those lines passed when written.
    const same = importProfile(profile, profile, 5);
    expect(same).toEqual({ ok: true, value: { profile, refused: [], importedOver: 0 } });
  });

  it('a current refusal wins over an imported one with the same id: the deleted line stays deleted', () => {
    const { profile, lineId, context } = profileWithLine();
    const deleted = deleteLine(profile, lineId, context);
    if (!deleted.ok) throw new Error('expected delete');
    const forged = structuredClone(profile);
    forged.refusals = deleted.value.profile.refusals.map((refusal) => ({ ...refusal, text: 'Unrelated words.' }));
    const imported = importProfile(deleted.value.profile, forged, 7);
    if (!imported.ok) throw new Error('expected import');
    expect(imported.value.profile.refusals).toEqual(deleted.value.profile.refusals);
    expect(imported.value.refused).toEqual([{ lineId, text: 'I prefer tabs over spaces.', code: 'refused-by-person' }]);
    expect(imported.value.profile.documents.preferences[0]!.ended).toEqual({ reason: 'deleted', at: 7 });
  });

  it("a `stated` line whose text is not its span (nor the person's words) is refused, however genuine the span", () => {
    const { profile } = profileWithLine();
    const forged = structuredClone(profile);
    forged.documents.preferences[0]!.text = 'The user is Christophe, a chef in Lyon.';
    const asked = (origin: { canvasId: string | null }) =>
      origin.canvasId === 'canvas-1' ? ['I prefer tabs over spaces.'] : null;
    const imported = importProfile(emptyProfile(), forged, 5, asked);
    if (!imported.ok) throw new Error('expected import');
    expect(imported.value.refused.map((entry) => entry.code)).toEqual(['no-own-words']);
    expect(imported.value.profile.documents.preferences[0]!.ended).toEqual({ reason: 'deleted', at: 5 });
    // A rewording that only uses the person's words keeps its label.
    forged.documents.preferences[0]!.text = 'Prefers tabs over spaces';
    const reworded = importProfile(emptyProfile(), forged, 5, asked);
    expect(reworded.ok && reworded.value.refused).toEqual([]);
  });

  it('a current line the import leaves out stays as history, ended imported-over', () => {
    const { profile, context } = profileWithLine();
    const added = addLine(profile, 'identity', 'Lives by a lake.', { ...context, newId: () => 'line-lake' });
    if (!added.ok) throw new Error('expected add');
    const imported = importProfile(added.value.profile, profile, 8);
    if (!imported.ok) throw new Error('expected import');
    expect(imported.value.importedOver).toBe(1);
    expect(imported.value.profile.documents.identity).toEqual([
      { ...added.value.profile.documents.identity[0]!, ended: { reason: 'imported-over', at: 8 } },
    ]);
    expect(imported.value.profile.documents.preferences).toEqual(profile.documents.preferences);
  });
});
