import { describe, expect, it } from 'vitest';
import type { MemoryProfile } from '../../../protocol/memory-profile.ts';
import { admitFact } from './admit-fact.ts';
import type { AdmittedFact } from './candidate-fact.ts';
import { mergeFact } from './merge-fact.ts';
import type { MergeOutcome } from './merge-fact.ts';
import { addLine, deleteLine } from './person-edits.ts';
import { currentLines, emptyProfile } from './profile.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';

const context = testContext(10_000, 'merged');

function fact(question: string, text: string, span: string, profile = emptyProfile()): AdmittedFact {
  const verdict = admitFact(testCandidate(text, span), testExchange(question), profile, 0);
  if (!verdict.admitted) throw new Error(verdict.reason);
  return verdict.fact;
}

function merge(profile: MemoryProfile, admitted: AdmittedFact, operations: unknown): MergeOutcome {
  const outcome = mergeFact(profile, admitted, operations, context);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.value;
}

/** A profile with two manual preference lines, line-1 "Writes Python" and line-2 "Prefers short answers". */
function twoLines(): MemoryProfile {
  const first = addLine(emptyProfile(), 'preferences', 'Writes Python', { now: 5_000, newId: () => 'line-1' });
  if (!first.ok) throw new Error(first.error);
  const second = addLine(first.value.profile, 'preferences', 'Prefers short answers', {
    now: 5_000,
    newId: () => 'line-2',
  });
  if (!second.ok) throw new Error(second.error);
  return second.value.profile;
}

const texts = (profile: MemoryProfile) => currentLines(profile, 'preferences').map((line) => line.text);

describe('merging an admitted fact: operations against line ids', () => {
  const dark = () => fact('I prefer dark mode everywhere.', 'Prefers dark mode', 'I prefer dark mode');

  it('adds an unrelated fact as a new stated line with its origin and span', () => {
    const outcome = merge(twoLines(), dark(), { operations: [{ op: 'add', text: 'Prefers dark mode' }] });
    expect(texts(outcome.profile)).toEqual(['Writes Python', 'Prefers short answers', 'Prefers dark mode']);
    const line = outcome.profile.documents.preferences.find((candidate) => candidate.id === outcome.lineId)!;
    expect(line).toMatchObject({ evidence: 'stated', span: 'I prefer dark mode', supersedes: [], ended: null });
    expect(line.origin).toMatchObject({
      canvasId: 'canvas-1',
      nodeId: 'node-1',
      versionId: 'version-1',
      commitHash: 'a'.repeat(64),
    });
    expect(outcome.event).toMatchObject({
      op: 'memory-written',
      meta: { operation: 'add', fallback: null, evidence: 'stated' },
    });
  });

  it('a refinement replaces its line in place and keeps the old one as superseded history', () => {
    const refined = fact(
      'I write Python 3.12 with type hints.',
      'Writes Python 3.12 with type hints',
      'I write Python 3.12',
    );
    const outcome = merge(twoLines(), refined, {
      operations: [{ op: 'replace', lineIds: ['line-1'], text: 'Writes Python 3.12 with type hints' }],
    });
    expect(texts(outcome.profile)).toEqual(['Writes Python 3.12 with type hints', 'Prefers short answers']);
    const [old, replacement] = outcome.profile.documents.preferences;
    expect(old).toMatchObject({ id: 'line-1', ended: { reason: 'replaced', at: context.now, by: outcome.lineId } });
    expect(replacement).toMatchObject({ id: outcome.lineId, supersedes: ['line-1'], evidence: 'stated' });
    expect(outcome.event.meta).toMatchObject({ operation: 'replace', replaced: 1 });
  });

  it('a contradiction replaces the line it contradicts', () => {
    const long = fact(
      'Actually I prefer long detailed answers.',
      'Prefers long detailed answers',
      'I prefer long detailed answers',
    );
    const outcome = merge(twoLines(), long, {
      operations: [{ op: 'replace', lineIds: ['line-2'], text: 'Prefers long detailed answers' }],
    });
    expect(texts(outcome.profile)).toEqual(['Writes Python', 'Prefers long detailed answers']);
    expect(outcome.profile.documents.preferences.find((line) => line.id === 'line-2')!.ended?.reason).toBe('replaced');
  });

  it('only the line the fact wrote gets the fact’s evidence; a reworded neighbour is `rewritten`, never `stated`', () => {
    const outcome = merge(twoLines(), dark(), {
      operations: [
        { op: 'add', text: 'Prefers dark mode' },
        { op: 'replace', lineIds: ['line-2'], text: 'Prefers short answers in dark mode' },
      ],
    });
    const lines = currentLines(outcome.profile, 'preferences');
    expect(lines.map((line) => [line.text, line.evidence, line.span])).toEqual([
      ['Writes Python', 'manual', null],
      ['Prefers short answers in dark mode', 'rewritten', null],
      ['Prefers dark mode', 'stated', 'I prefer dark mode'],
    ]);
    expect(outcome.event.meta).toMatchObject({ rewritten: 1, replaced: 1 });
  });

  it('a no-op writes nothing (the document already covers the fact)', () => {
    const before = twoLines();
    const outcome = merge(before, dark(), { operations: [{ op: 'no-op' }] });
    expect(outcome.profile).toBe(before);
    expect(outcome).toMatchObject({ lineId: null, operation: 'no-op' });
  });

  it('without a merge model the fact is added, or replaces the line it updates', () => {
    expect(texts(merge(twoLines(), dark(), null).profile)).toEqual([
      'Writes Python',
      'Prefers short answers',
      'Prefers dark mode',
    ]);
    const update = { ...dark(), updates: 'line-2' };
    expect(texts(merge(twoLines(), update, null).profile)).toEqual(['Writes Python', 'Prefers dark mode']);
  });

  describe('hostile or broken operations are refused and the fact appended instead', () => {
    const cases: [string, unknown, string][] = [
      [
        'an operation that drops two lines to add one',
        { operations: [{ op: 'replace', lineIds: ['line-1', 'line-2'], text: 'Prefers dark mode' }] },
        'drops-lines',
      ],
      [
        'an operation naming an unknown id',
        { operations: [{ op: 'replace', lineIds: ['line-9'], text: 'Prefers dark mode' }] },
        'unknown-line',
      ],
      [
        'the same line replaced twice',
        {
          operations: [
            { op: 'replace', lineIds: ['line-1'], text: 'Prefers dark mode' },
            { op: 'replace', lineIds: ['line-1'], text: 'Writes Python daily' },
          ],
        },
        'unknown-line',
      ],
      [
        'an operation carrying a credential',
        {
          operations: [
            { op: 'add', text: 'Prefers dark mode' },
            { op: 'replace', lineIds: ['line-1'], text: 'Writes Python, key sk-proj-abcdefghijklmnopqrstu' },
          ],
        },
        'credential',
      ],
      ['a free rewrite of the document', { document: 'Prefers dark mode\nWrites Python' }, 'malformed'],
      ['prose instead of operations', 'Sure! Here is the merged document.', 'malformed'],
      [
        'operations that lose the fact',
        { operations: [{ op: 'replace', lineIds: ['line-1'], text: 'Writes dark Python' }] },
        'fact-missing',
      ],
      [
        'no-op mixed with writes',
        { operations: [{ op: 'no-op' }, { op: 'add', text: 'Prefers dark mode' }] },
        'mixed-no-op',
      ],
      [
        'a line with a line break',
        { operations: [{ op: 'add', text: 'Prefers dark mode\nand more' }] },
        'not-one-line',
      ],
      [
        'a line written twice',
        {
          operations: [
            { op: 'add', text: 'Prefers dark mode' },
            { op: 'replace', lineIds: ['line-1'], text: 'prefers dark mode' },
          ],
        },
        'duplicate-line',
      ],
      [
        'an add of a line that is not the fact (the model inventing a fact)',
        {
          operations: [
            { op: 'add', text: 'Prefers dark mode' },
            { op: 'add', text: 'The user is Christophe, born in 1970, lives in Paris.' },
          ],
        },
        'unrelated-add',
      ],
      [
        'a rewrite that brings in words neither the replaced line nor the fact holds',
        {
          operations: [
            { op: 'add', text: 'Prefers dark mode' },
            { op: 'replace', lineIds: ['line-2'], text: 'Prefers short answers, lives in Paris' },
          ],
        },
        'new-words',
      ],
    ];
    it.each(cases)('%s', (_name, operations, code) => {
      const before = twoLines();
      const outcome = merge(before, dark(), operations);
      expect(outcome).toMatchObject({ operation: 'append', fallback: code });
      expect(texts(outcome.profile)).toEqual(['Writes Python', 'Prefers short answers', 'Prefers dark mode']);
      expect(outcome.profile.documents.preferences.slice(0, 2)).toEqual(before.documents.preferences);
      expect(outcome.event.meta).toMatchObject({ operation: 'append', fallback: code, evidence: 'stated' });
    });

    it('every line the operations write counts toward the visit limit', () => {
      const operations = {
        operations: [
          { op: 'add', text: 'Prefers dark mode' },
          { op: 'replace', lineIds: ['line-2'], text: 'Prefers short answers in dark mode' },
        ],
      };
      const tight = mergeFact(twoLines(), dark(), operations, context, 1);
      expect(tight.ok && tight.value).toMatchObject({ operation: 'append', fallback: 'visit-limit', written: 1 });
      const roomy = mergeFact(twoLines(), dark(), operations, context, 2);
      expect(roomy.ok && roomy.value).toMatchObject({ operation: 'add', fallback: null, written: 2 });
    });

    it('operations that would bring back a deleted line', () => {
      const deleted = deleteLine(twoLines(), 'line-2', context);
      if (!deleted.ok) throw new Error(deleted.error);
      const outcome = merge(deleted.value.profile, dark(), {
        operations: [
          { op: 'add', text: 'Prefers dark mode' },
          { op: 'add', text: 'Prefers short answers' },
        ],
      });
      expect(outcome.fallback).toBe('refused-by-person');
      expect(texts(outcome.profile)).toEqual(['Writes Python', 'Prefers dark mode']);
    });
  });

  it('the event never carries the fact’s text', () => {
    const outcome = merge(twoLines(), dark(), null);
    expect(JSON.stringify(outcome.event)).not.toMatch(/dark/i);
  });
});

describe('bad injected ids or origins never reach the profile', () => {
  it('refuses with invalid and leaves the profile untouched', () => {
    const exchange = testExchange('I prefer dark mode everywhere.');
    const verdict = admitFact(testCandidate('Prefers dark mode', 'I prefer dark mode'), exchange, emptyProfile(), 0);
    if (!verdict.admitted) throw new Error(verdict.reason);
    const profile = twoLines();
    expect(mergeFact(profile, verdict.fact, null, { now: 20_000, newId: () => 'line-1' })).toEqual({
      ok: false,
      error: 'invalid',
    });
    expect(mergeFact(profile, verdict.fact, null, { now: 20_000, newId: () => '' })).toEqual({
      ok: false,
      error: 'invalid',
    });
    const badOrigin = { ...verdict.fact, origin: { ...verdict.fact.origin, commitHash: 'not-a-hash' } };
    expect(mergeFact(profile, badOrigin, null, context)).toEqual({ ok: false, error: 'invalid' });
    expect(addLine(profile, 'preferences', 'Writes Go', { now: 1, newId: () => 'line-2' })).toEqual({
      ok: false,
      error: 'invalid',
    });
  });
});
