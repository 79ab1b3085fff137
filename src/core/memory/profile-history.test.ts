import { describe, expect, it } from 'vitest';
import { addLine, deleteLine, editLine } from './person-edits.ts';
import { lineHistory, profileAt } from './profile-history.ts';
import { emptyProfile } from './profile.ts';
import { memoryBlock } from './memory-block.ts';
import { testContext } from './memory-test-kit.ts';

function unwrap<Value>(result: { ok: true; value: Value } | { ok: false; error: string }): Value {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/** Lyon at t=10s, Grenoble at t=20s (replacing Lyon), Paris at t=30s (replacing Grenoble), tabs deleted at 40s. */
function story() {
  const context = testContext(10_000);
  let profile = unwrap(addLine(emptyProfile(), 'identity', 'Lives in Lyon', context)).profile; // line-1
  profile = unwrap(addLine(profile, 'preferences', 'Prefers tabs', context)).profile; // line-2
  context.now = 20_000;
  profile = unwrap(editLine(profile, 'line-1', 'Lives in Grenoble', context)).profile; // line-3 (refusal line-4)
  context.now = 30_000;
  profile = unwrap(editLine(profile, 'line-3', 'Lives in Paris', context)).profile; // line-5 (refusal line-6)
  context.now = 40_000;
  profile = unwrap(deleteLine(profile, 'line-2', context)).profile;
  return profile;
}

const texts = (lines: { text: string }[]) => lines.map((line) => line.text);

describe('what Weft believed about the person at time T, and why it changed', () => {
  it('profileAt answers for any past time', () => {
    const profile = story();
    expect(profileAt(profile, 9_999)).toEqual({ preferences: [], identity: [] });
    expect(texts(profileAt(profile, 15_000).identity)).toEqual(['Lives in Lyon']);
    expect(texts(profileAt(profile, 25_000).identity)).toEqual(['Lives in Grenoble']);
    expect(texts(profileAt(profile, 35_000).preferences)).toEqual(['Prefers tabs']);
    expect(profileAt(profile, 40_000)).toMatchObject({ preferences: [] });
    expect(texts(profileAt(profile, 40_000).identity)).toEqual(['Lives in Paris']);
  });

  it('lineHistory gives the whole chain from any line in it, oldest first, with why each ended', () => {
    const profile = story();
    for (const id of ['line-1', 'line-3', 'line-5']) {
      const history = lineHistory(profile, id);
      expect(texts(history)).toEqual(['Lives in Lyon', 'Lives in Grenoble', 'Lives in Paris']);
      expect(history.map((line) => line.ended)).toEqual([
        { reason: 'replaced', at: 20_000, by: 'line-3' },
        { reason: 'replaced', at: 30_000, by: 'line-5' },
        null,
      ]);
    }
    expect(lineHistory(profile, 'line-2').map((line) => line.ended)).toEqual([{ reason: 'deleted', at: 40_000 }]);
    expect(lineHistory(profile, 'nope')).toEqual([]);
  });

  it('the [Memory] block sends only current lines, without notes', () => {
    expect(memoryBlock(emptyProfile())).toBeNull();
    expect(memoryBlock(story())).toBe('[Memory]\nIdentity:\n- Lives in Paris');
  });
});
