import { describe, expect, it } from 'vitest';
import type { AnswerCheck } from '../../protocol/index.ts';
import { checkWords, runCheck } from './run-check.ts';
import { safePattern } from './safe-pattern.ts';

/** A golden set: answers a researcher would score, each with the outcome a person reading it would give. */
const GOLDEN: { check: AnswerCheck; answer: string; outcome: 'pass' | 'fail' | 'error' }[] = [
  { check: { id: 'c', kind: 'contains', text: 'Paris' }, answer: 'The capital is paris.', outcome: 'pass' },
  {
    check: { id: 'c', kind: 'contains', text: 'Paris', caseSensitive: true },
    answer: 'the capital is paris',
    outcome: 'fail',
  },
  { check: { id: 'n', kind: 'not-contains', text: 'as an AI' }, answer: 'As an AI, I cannot say.', outcome: 'fail' },
  { check: { id: 'n', kind: 'not-contains', text: 'as an AI' }, answer: 'It is 42.', outcome: 'pass' },
  { check: { id: 'r', kind: 'regex', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, answer: '2026-12-07', outcome: 'pass' },
  {
    check: { id: 'r', kind: 'regex', pattern: 'p\\s*<\\s*0\\.05', ignoreCase: true },
    answer: 'We found P < 0.05.',
    outcome: 'pass',
  },
  { check: { id: 'r', kind: 'regex', pattern: '^yes$' }, answer: 'yes, mostly', outcome: 'fail' },
  { check: { id: 'r', kind: 'regex', pattern: '(a+)+$' }, answer: 'aaaa', outcome: 'error' },
  {
    check: { id: 'v', kind: 'number', value: 22, tolerance: 0 },
    answer: 'D = 22 (since C = 14), so the answer is **22**.',
    outcome: 'pass',
  },
  { check: { id: 'v', kind: 'number', value: 1250, tolerance: 0 }, answer: 'Total: 1,250 units.', outcome: 'pass' },
  { check: { id: 'v', kind: 'number', value: 3.14, tolerance: 0.01 }, answer: 'π is about 3.1416', outcome: 'pass' },
  { check: { id: 'v', kind: 'number', value: 22, tolerance: 0.4 }, answer: 'The answer is 22.5', outcome: 'fail' },
  { check: { id: 'v', kind: 'number', value: 7, tolerance: 0 }, answer: 'I cannot tell.', outcome: 'fail' },
  {
    check: {
      id: 'j',
      kind: 'json',
      schema: {
        type: 'object',
        required: ['name', 'year'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1 }, year: { type: 'integer', minimum: 1900 } },
      },
    },
    answer: 'Here it is:\n```json\n{"name": "Weft", "year": 2026}\n```',
    outcome: 'pass',
  },
  {
    check: {
      id: 'j',
      kind: 'json',
      schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
    answer: '{"name": 7}',
    outcome: 'fail',
  },
  {
    check: { id: 'j', kind: 'json', schema: { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 2 } },
    answer: '["a", "c"]',
    outcome: 'fail',
  },
  { check: { id: 'j', kind: 'json', schema: { type: 'object' } }, answer: 'not json at all', outcome: 'fail' },
  { check: { id: 'j', kind: 'json', schema: { type: 'string', pattern: '^a' } }, answer: '"abc"', outcome: 'error' },
];

describe('runCheck on a golden set of answers', () => {
  it.each(GOLDEN.map((entry) => [checkWords(entry.check), entry.answer, entry.outcome, entry] as const))(
    '%s on %j → %s',
    (_words, answer, outcome, entry) => {
      expect(runCheck(entry.check, answer)?.outcome).toBe(outcome);
    },
  );

  it('says why: the number read, the schema violation, the refused pattern', () => {
    expect(runCheck({ id: 'v', kind: 'number', value: 7, tolerance: 0 }, 'so x = 9')?.detail).toBe('read 9');
    expect(
      runCheck({ id: 'j', kind: 'json', schema: { type: 'object', required: ['name'] } }, '{"title": "x"}')?.detail,
    ).toBe('$: missing required name');
    expect(runCheck({ id: 'r', kind: 'regex', pattern: '(\\w)\\1' }, 'aa')?.detail).toBe(
      'backreferences are not allowed',
    );
  });

  it('leaves a rubric to the judge', () => {
    expect(runCheck({ id: 'u', kind: 'rubric', rubric: 'Cites a source' }, 'See [1].')).toBeNull();
  });
});

describe('safePattern', () => {
  it.each(['(a+)+', '(a|aa)*', '((ab*))+', '(?=a)b', '(?<!a)b', 'a**', '\\k<x>', 'x'.repeat(201)])(
    'refuses %s',
    (pattern) => {
      expect(safePattern(pattern).ok).toBe(false);
    },
  );

  it.each(['\\d+(\\.\\d+)?', '^(yes|no)$', '[(+*]+', '\\(a+\\)+', 'colou?r', '(ab){2,3}'])('accepts %s', (pattern) => {
    expect(safePattern(pattern).ok).toBe(true);
  });

  it('answers a long hostile input quickly with an accepted pattern', () => {
    const pattern = safePattern('^(a|b)c$');
    // (a|b) is an alternation in an unrepeated group: allowed; the match stays linear.
    expect(pattern.ok).toBe(true);
    const started = performance.now();
    if (pattern.ok) expect(pattern.regex.test('a'.repeat(100_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
