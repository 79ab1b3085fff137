import type { MemoryReading } from '../../../protocol/index.ts';

const DAY_MS = 86_400_000;

/** The `yyyy-mm-dd` (UTC) an "as of" time falls on, as a date input shows it; '' for none. */
export function asOfDay(asOf: number | null): string {
  if (asOf === null) return '';
  const date = new Date(asOf);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

/**
 * The time a date input's `yyyy-mm-dd` stands for: the end of that day (UTC), so "as of" a day includes what was
 * said on it. Null for an empty or unreadable value (then the node reads memory as it is now).
 */
export function asOfFromDay(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const start = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(start) && start >= 0 ? start + DAY_MS - 1 : null;
}

/** #29: one line saying how a node reads memory, for its panel and the will-send preview. */
export function memoryReadingLine(reading: MemoryReading): string {
  const items = reading.includeInferred
    ? 'stated, observed and inferred items (inferred ones marked [inferred])'
    : 'stated and observed items only (inferred left out)';
  const when = reading.asOf === null ? 'as it is now' : `as of ${asOfDay(reading.asOf)}`;
  return `Memory reading: ${items}, ${when}.`;
}
