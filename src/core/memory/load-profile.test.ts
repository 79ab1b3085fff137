import { describe, expect, it } from 'vitest';
import { loadProfile } from './load-profile.ts';
import { addLine, editLine } from './person-edits.ts';
import { emptyProfile } from './profile.ts';
import { testContext } from './memory-test-kit.ts';

function edited() {
  const context = testContext();
  const added = addLine(emptyProfile(), 'identity', 'Lives in Lyon', context);
  if (!added.ok) throw new Error(added.error);
  const changed = editLine(added.value.profile, 'line-1', 'Lives in Paris', context);
  if (!changed.ok) throw new Error(changed.error);
  return changed.value.profile;
}

describe('loading a stored or imported profile', () => {
  it('round-trips a profile written by core through JSON', () => {
    const profile = edited();
    expect(loadProfile(JSON.parse(JSON.stringify(profile)))).toEqual({ ok: true, value: profile });
  });

  it('refuses duplicate ids and broken history with a code', () => {
    const profile = edited();
    const [first, second] = profile.documents.identity;
    const duplicate = { ...profile, documents: { ...profile.documents, preferences: [{ ...second!, ended: null }] } };
    expect(loadProfile(duplicate)).toMatchObject({ ok: false, error: { code: 'duplicate-id' } });
    const dangling = {
      ...profile,
      documents: { ...profile.documents, identity: [first!, { ...second!, supersedes: ['line-9'] }] },
    };
    expect(loadProfile(dangling)).toMatchObject({ ok: false, error: { code: 'broken-history' } });
    const unclaimed = {
      ...profile,
      documents: { ...profile.documents, identity: [first!, { ...second!, supersedes: [] }] },
    };
    expect(loadProfile(unclaimed)).toMatchObject({ ok: false, error: { code: 'broken-history' } });
  });

  it('passes on the schema’s refusals', () => {
    expect(loadProfile({ format: 'weft.memory-profile', version: 9 })).toMatchObject({
      ok: false,
      error: { code: 'newer-version' },
    });
  });
});
