import { describe, expect, it } from 'vitest';
import { admitFact } from './admit-fact.ts';
import { mergeFact } from './merge-fact.ts';
import { mergeRequest, parseMergeAnswer } from './merge-request.ts';
import { addLine, deleteLine } from './person-edits.ts';
import { emptyProfile } from './profile.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';

function admitted(text: string) {
  const verdict = admitFact(testCandidate(text, text), testExchange(text), emptyProfile(), 0);
  if (!verdict.admitted) throw new Error(verdict.reason);
  return verdict.fact;
}

function withLine(text: string) {
  const added = addLine(emptyProfile(), 'preferences', text, { now: 5_000, newId: () => 'line-1' });
  if (!added.ok) throw new Error(added.error);
  return added.value.profile;
}

describe('mergeRequest', () => {
  it('is not asked when the document has no current line (nothing to merge against)', () => {
    const fact = admitted('I prefer tabs over spaces.');
    expect(mergeRequest(emptyProfile(), fact)).toBeNull();
    const deleted = deleteLine(withLine('Writes Python'), 'line-1', { now: 6_000, newId: () => 'refusal-1' });
    if (!deleted.ok) throw new Error(deleted.error);
    expect(mergeRequest(deleted.value.profile, fact)).toBeNull();
  });

  it('lists the current lines by id and the new fact, and names the three operations', () => {
    const request = mergeRequest(withLine('Writes Python'), admitted('I prefer tabs over spaces.'))!;
    expect(request.kind).toBe('memory-merge');
    expect(request.prompt).toContain('line-1: Writes Python\n');
    expect(request.prompt).toContain("[New fact, in the person's words]\nI prefer tabs over spaces.\n");
    for (const op of ['"add"', '"replace"', '"no-op"']) expect(request.system).toContain(op);
  });
});

describe('parseMergeAnswer', () => {
  it('reads the JSON object out of fences and prose; mergeFact applies it', () => {
    const raw = parseMergeAnswer(
      'Here you go:\n```json\n{"operations":[{"op":"replace","lineIds":["line-1"],"text":"I prefer tabs over spaces."}]}\n```',
    );
    const merged = mergeFact(
      withLine('Writes Python'),
      admitted('I prefer tabs over spaces.'),
      raw,
      testContext(10_000, 'merged'),
    );
    expect(merged.ok && [merged.value.operation, merged.value.fallback]).toEqual(['replace', null]);
  });

  it('hands prose or broken JSON on as it is, which mergeFact refuses as malformed and appends the fact', () => {
    for (const text of ['I added it for you.', '{"operations": [', '']) {
      const raw = parseMergeAnswer(text);
      const merged = mergeFact(
        withLine('Writes Python'),
        admitted('I prefer tabs over spaces.'),
        raw,
        testContext(10_000, 'merged'),
      );
      expect(merged.ok && [merged.value.operation, merged.value.fallback]).toEqual(['append', 'malformed']);
    }
  });
});
