import { describe, expect, it } from 'vitest';
import { formatDay } from '../../core/index.ts';
import { asOfDay, asOfFromDay, memoryReadingLine } from './memory-reading-line.ts';

describe('the memory reading line (#29)', () => {
  it('reads a date input as the end of that day where the person is, and shows it back as the same day', () => {
    const asOf = asOfFromDay('2026-03-01');
    expect(asOf).toBe(new Date(2026, 2, 2).getTime() - 1);
    expect(asOfDay(asOf)).toBe('2026-03-01');
    expect(asOfFromDay('')).toBeNull();
    expect(asOfFromDay('not a day')).toBeNull();
    expect(asOfDay(null)).toBe('');
  });

  it('says whether inferred items come in and as of when', () => {
    expect(memoryReadingLine({ includeInferred: false, asOf: null })).toBe(
      'Memory reading: stated, observed and reconstructed items (reconstructed ones marked; inferred left out), as it is now.',
    );
    expect(memoryReadingLine({ includeInferred: true, asOf: asOfFromDay('2025-12-31') })).toBe(
      `Memory reading: stated, observed, reconstructed and inferred items (inferred ones marked [inferred]), as of ${formatDay(new Date(2025, 11, 31).getTime())}.`,
    );
  });
});
