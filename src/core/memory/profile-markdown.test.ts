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

  it('an import cannot bring back a line the person deleted', () => {
    const { profile, lineId, context } = profileWithLine();
    const exported = profileToMarkdown(profile);
    const deleted = deleteLine(profile, lineId, context);
    if (!deleted.ok) throw new Error('expected delete');
    const read = profileFromMarkdown(exported);
    if (!read.ok) throw new Error('expected read');
    const imported = importProfile(deleted.value.profile, read.value, 99_000);
    expect(imported.documents.preferences[0]!.ended).toEqual({ reason: 'deleted', at: 99_000 });
    expect(imported.refusals).toEqual(deleted.value.profile.refusals);
    // A line the person typed is theirs, even when it matches.
    const typed = addLine(read.value, 'identity', 'I prefer tabs over spaces, truly.', context);
    if (!typed.ok) throw new Error('expected add');
    const kept = importProfile(deleted.value.profile, typed.value.profile, 99_000);
    expect(kept.documents.identity[0]!.ended).toBeNull();
  });
});
