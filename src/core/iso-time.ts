/**
 * ISO 8601 text of a stored time (ms since the epoch), or null for one no Date can show
 * (beyond ±8.64e15 ms: only a crafted file holds such a time, and it must not crash a read path).
 */
export function isoTime(at: number): string | null {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
