import type { ParseTotals } from './parse-totals.ts';

/** One line of parse totals for `weft status` and `weft index`. */
export function formatParseTotals(totals: ParseTotals): string {
  const unknown = Object.values(totals.unknownRecordTypes).reduce((sum, count) => sum + count, 0);
  const kinds = Object.keys(totals.unknownRecordTypes).length;
  return (
    `${totals.records} records in ${totals.files} session files: ${totals.invalidJson} invalid JSON, ` +
    `${totals.invalidUtf8} invalid UTF-8, ${totals.gluedObjects} glued, ${totals.wrongShape} wrong shape, ` +
    `${totals.oversizedLines} oversized, ${unknown} of unknown types${kinds > 0 ? ` (${kinds} kinds)` : ''}` +
    (totals.filesWithOddities > 0 ? `; ${totals.filesWithOddities} files with oddities (--json lists each)` : '')
  );
}
