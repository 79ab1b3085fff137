import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Plaque } from '../../../protocol/index.ts';
import { PlaqueConclusivenessSchema, PlaqueSummaryTypeSchema } from '../../../protocol/index.ts';
import { modelGrade, plaqueGrade, ruleGrade } from './plaque-grade.ts';
import { ruleLadder } from './rule-plaque.ts';

const ladder = (takeaway: string, abstract: string[] = []) => ({ takeaway, abstract });

describe('plaque grade (#29.3)', () => {
  it('the rule reads conclusiveness: a question or an unresolved point is open, a hedge tentative, else settled', () => {
    expect(ruleGrade(ladder('Is the schema versioned per table?')).conclusiveness).toBe('open');
    expect(ruleGrade(ladder('Whether Dexie fits remains unclear.')).conclusiveness).toBe('open');
    expect(ruleGrade(ladder('The leak is probably in the worker pool.')).conclusiveness).toBe('tentative');
    expect(ruleGrade(ladder('Dexie versions schemas.', ['It might also cache reads.'])).conclusiveness).toBe(
      'tentative',
    );
    expect(ruleGrade(ladder('Dexie versions schemas.')).conclusiveness).toBe('settled');
  });

  it('the rule reads the summary type', () => {
    expect(ruleGrade(ladder('Dexie versions schemas.')).summaryType).toBe('finding');
    expect(ruleGrade(ladder('Use fake-indexeddb in the tests.')).summaryType).toBe('recommendation');
    expect(ruleGrade(ladder('You should pin the version.')).summaryType).toBe('recommendation');
    expect(ruleGrade(ladder('SQLite is faster than IndexedDB for scans.')).summaryType).toBe('comparison');
    expect(ruleGrade(ladder('The test fails because the clock is real.')).summaryType).toBe('explanation');
    expect(ruleGrade(ladder('Install it.'), 'Do this:\n1. Install it.\n2. Run it.\n3. Check it.').summaryType).toBe(
      'procedure',
    );
  });

  it('a rule plaque of a hedged answer is tentative, the same every time', () => {
    const answer = 'The crash may come from the cache. Clearing it could help. Nobody has confirmed it.';
    const first = ruleLadder('Why does it crash?', answer)!;
    expect(ruleGrade(first, answer)).toEqual({ summaryType: 'finding', conclusiveness: 'tentative' });
    expect(ruleGrade(ruleLadder('Why does it crash?', answer)!, answer)).toEqual(ruleGrade(first, answer));
  });

  it('takes a model’s grade field by field, the rule filling what it left out or misnamed', () => {
    const rule = { summaryType: 'finding' as const, conclusiveness: 'settled' as const };
    expect(modelGrade({ summaryType: 'comparison', conclusiveness: 'open' }, rule)).toEqual({
      summaryType: 'comparison',
      conclusiveness: 'open',
    });
    expect(modelGrade({ summaryType: 'poem', conclusiveness: 3 }, rule)).toEqual(rule);
    expect(modelGrade(null, rule)).toEqual(rule);
  });

  it('shows a stored grade, and derives one for a plaque from before #29', () => {
    const base: Plaque = {
      topic: 'leak',
      takeaway: 'The leak is probably in the pool',
      reason: '',
      sentences: [],
      abstract: [],
      source: 'rule',
      model: null,
      writtenAt: 1,
    };
    expect(plaqueGrade(base)).toEqual({ summaryType: 'finding', conclusiveness: 'tentative' });
    expect(plaqueGrade({ ...base, summaryType: 'procedure', conclusiveness: 'open' })).toEqual({
      summaryType: 'procedure',
      conclusiveness: 'open',
    });
  });

  it('property: any text gets one grade of the schema, deterministically', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.array(fc.string({ maxLength: 80 }), { maxLength: 4 }), (t, a) => {
        const grade = ruleGrade(ladder(t, a));
        expect(PlaqueSummaryTypeSchema.options).toContain(grade.summaryType);
        expect(PlaqueConclusivenessSchema.options).toContain(grade.conclusiveness);
        expect(ruleGrade(ladder(t, a))).toEqual(grade);
      }),
    );
  });
});
