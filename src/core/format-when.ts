// The one date format of everything a person reads, in their locale (`undefined`: the runtime's, the browser's in the
// renderer). The formatters are made once: `toLocaleString` builds one per call, which shows on 500 cards.
const DAY_OPTIONS = { year: 'numeric', month: 'short', day: 'numeric' } as const;
const CLOCK_OPTIONS = { hour: '2-digit', minute: '2-digit' } as const;
const WHEN = new Intl.DateTimeFormat(undefined, { ...DAY_OPTIONS, ...CLOCK_OPTIONS });
const DAY = new Intl.DateTimeFormat(undefined, DAY_OPTIONS);
const CLOCK = new Intl.DateTimeFormat(undefined, CLOCK_OPTIONS);

/** A moment, day and time ("7 Dec 2026, 14:05" or "Dec 7, 2026, 02:05 PM", by locale); null is "unknown time". */
export function formatWhen(at: number | null): string {
  return at === null ? 'unknown time' : WHEN.format(at);
}

/** The day of a moment, in the same format as `formatWhen`; null is "undated". */
export function formatDay(at: number | null): string {
  return at === null ? 'undated' : DAY.format(at);
}

/** The time of day of a moment, in the same format as `formatWhen`. */
export function formatClock(at: number): string {
  return CLOCK.format(at);
}
