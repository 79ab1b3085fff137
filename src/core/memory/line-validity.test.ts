import { describe, expect, it } from 'vitest';
import type { MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import { lineValidity, linesValidAt } from './line-validity.ts';
import { memoryBlock } from './memory-block.ts';
import { supersedingStatements, testContext } from './memory-test-kit.ts';
import { addLine, deleteLine, editLine } from './person-edits.ts';
import { emptyProfile } from './profile.ts';

const DAY = 86_400_000;
const MARCH = Date.UTC(2026, 2, 1);
const JUNE = Date.UTC(2026, 5, 1);

/** "I live in Lyon" said in March, "I live in Paris" (superseding it) said in June; each recorded a week later. */
function moved() {
  const { profile, lineIds } = supersedingStatements(
    [
      { said: 'I live in Lyon with my family.', text: 'Lives in Lyon', at: MARCH, id: 'line-lyon' },
      { said: 'I live in Paris with my family.', text: 'Lives in Paris', at: JUNE, id: 'line-paris' },
    ],
    'identity',
    7 * DAY,
  );
  return { profile, lyonId: lineIds[0]!, parisId: lineIds[1]! };
}

const texts = (lines: readonly ProfileLine[]) => lines.map((line) => line.text);
const line = (profile: MemoryProfile, id: string) => profile.documents.identity.find((each) => each.id === id)!;

describe('when a fact was true (#29.4)', () => {
  it('a line is valid from the turn that stated it until the statement that superseded it', () => {
    const { profile, lyonId, parisId } = moved();
    expect(line(profile, lyonId).createdAt).toBe(MARCH + 7 * DAY);
    expect(lineValidity(profile, line(profile, lyonId))).toEqual({ from: MARCH, to: JUNE });
    expect(lineValidity(profile, line(profile, parisId))).toEqual({ from: JUNE, to: null });
  });

  it('a fact superseded by a later statement leaves the current block and is served as of a date before the change', () => {
    const { profile } = moved();
    expect(memoryBlock(profile)).toBe('[Memory]\nIdentity:\n- Lives in Paris');
    expect(memoryBlock(profile, { asOf: MARCH + DAY })).toBe(
      '[Memory as of 2026-03-02T00:00:00.000Z]\nIdentity:\n- Lives in Lyon',
    );
    expect(memoryBlock(profile, { asOf: JUNE })).toBe(
      '[Memory as of 2026-06-01T00:00:00.000Z]\nIdentity:\n- Lives in Paris',
    );
    // Before anything was said, nothing held: no block at all.
    expect(memoryBlock(profile, { asOf: MARCH - 1 })).toBeNull();
    expect(memoryBlock(profile, { asOf: null })).toBe(memoryBlock(profile));
  });

  it('stored validity wins over the derived one, and an interval never runs backwards', () => {
    const { profile, lyonId } = moved();
    const lyon = line(profile, lyonId);
    expect(lineValidity(profile, { ...lyon, validFrom: MARCH - 30 * DAY, validTo: MARCH })).toEqual({
      from: MARCH - 30 * DAY,
      to: MARCH,
    });
    expect(lineValidity(profile, { ...lyon, validFrom: JUNE + DAY })).toEqual({ from: JUNE + DAY, to: JUNE + DAY });
  });

  it('a deleted line is not superseded: it is never served, not even as of a time it was current', () => {
    const context = testContext(MARCH);
    const added = addLine(emptyProfile(), 'preferences', 'Prefers tabs', context);
    if (!added.ok) throw new Error(added.error);
    context.now = JUNE;
    const deleted = deleteLine(added.value.profile, 'line-1', context);
    if (!deleted.ok) throw new Error(deleted.error);
    const profile = deleted.value.profile;
    expect(lineValidity(profile, profile.documents.preferences[0]!)).toEqual({ from: MARCH, to: null });
    expect(linesValidAt(profile, MARCH + DAY).preferences).toEqual([]);
    expect(memoryBlock(profile, { asOf: MARCH + DAY })).toBeNull();
  });

  it('a line the person edited away is refused, so no "as of" date brings its words back; a refinement is history', () => {
    const context = testContext(MARCH);
    let profile = emptyProfile();
    for (const text of ['Lives in Lyon', 'Prefers tabs']) {
      const added = addLine(profile, text.startsWith('Lives') ? 'identity' : 'preferences', text, context);
      if (!added.ok) throw new Error(added.error);
      profile = added.value.profile;
    }
    context.now = JUNE;
    for (const [id, text] of [
      ['line-1', 'Lives in Grenoble'],
      ['line-2', 'Prefers tabs for indentation'],
    ] as const) {
      const edited = editLine(profile, id, text, context);
      if (!edited.ok) throw new Error(edited.error);
      profile = edited.value.profile;
    }
    const then = linesValidAt(profile, MARCH + DAY);
    expect(texts(then.identity)).toEqual([]);
    expect(texts(then.preferences)).toEqual(['Prefers tabs']);
    expect(texts(linesValidAt(profile, JUNE).preferences)).toEqual(['Prefers tabs for indentation']);
  });

  it('a profile stored before validity existed reads the same intervals as one that carries them', () => {
    const { profile, lyonId, parisId } = moved();
    const explicit: MemoryProfile = {
      ...profile,
      documents: {
        ...profile.documents,
        identity: profile.documents.identity.map((each) =>
          each.id === lyonId
            ? { ...each, validFrom: MARCH, validTo: JUNE }
            : { ...each, validFrom: JUNE, validTo: null },
        ),
      },
    };
    for (const id of [lyonId, parisId])
      expect(lineValidity(explicit, line(explicit, id))).toEqual(lineValidity(profile, line(profile, id)));
    expect(memoryBlock(explicit, { asOf: MARCH + DAY })).toBe(memoryBlock(profile, { asOf: MARCH + DAY }));
  });
});
