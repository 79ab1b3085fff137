import { describe, expect, it } from 'vitest';
import { formatClock, formatDay, formatWhen } from './format-when.ts';

const AT = Date.UTC(2026, 11, 7, 14, 5);

describe('formatWhen', () => {
  it('writes day and time in the locale’s own format, the day and the clock being its parts', () => {
    const when = formatWhen(AT);
    expect(when).toBe(
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }).format(AT),
    );
    expect(when).toContain('2026');
    expect(formatDay(AT)).toContain('2026');
    expect(formatDay(AT)).not.toMatch(/\d{2}:\d{2}/);
    expect(formatClock(AT)).toMatch(/\d{2}.\d{2}/);
  });

  it('names a missing moment in words', () => {
    expect(formatWhen(null)).toBe('unknown time');
    expect(formatDay(null)).toBe('undated');
  });
});
