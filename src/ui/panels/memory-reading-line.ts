import type { MemoryReading } from '../../../protocol/index.ts';
import { formatDay } from '../../core/index.ts';

const two = (value: number) => String(value).padStart(2, '0');

/** The date input's value (`yyyy-mm-dd`, the person's own day) an "as of" time falls on; '' for none. */
export function asOfDay(asOf: number | null): string {
  if (asOf === null) return '';
  const date = new Date(asOf);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/**
 * The time a date input's `yyyy-mm-dd` stands for: the end of that day where the person is, so "as of" a day includes
 * what was said on it. Null for an empty or unreadable value (then the node reads memory as it is now).
 */
export function asOfFromDay(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999).getTime();
  return Number.isFinite(end) && end >= 0 ? end : null;
}

/** #29: one line saying how a node reads memory, for its panel and the will-send preview. */
export function memoryReadingLine(reading: MemoryReading): string {
  const items = reading.includeInferred
    ? 'stated, observed, reconstructed and inferred items (inferred ones marked [inferred])'
    : 'stated, observed and reconstructed items (reconstructed ones marked; inferred left out)';
  const when = reading.asOf === null ? 'as it is now' : `as of ${formatDay(reading.asOf)}`;
  return `Memory reading: ${items}, ${when}.`;
}
