import type { ParseReport } from '../../protocol/index.ts';
import type { IndexDatabase } from './open-index-database.ts';

/** What reading the session files met, summed over every indexed file (`weft status`, `weft index`). */
export interface ParseTotals {
  files: number;
  /** Files whose report counts anything but clean records. */
  filesWithOddities: number;
  lines: number;
  records: number;
  invalidJson: number;
  invalidUtf8: number;
  gluedObjects: number;
  wrongShape: number;
  oversizedLines: number;
  truncatedLastLine: number;
  emptyLines: number;
  /** Records of types no adapter knows, by type name. */
  unknownRecordTypes: Record<string, number>;
}

export interface FileParseReport {
  path: string;
  runner: string | null;
  report: ParseReport;
}

const COUNTERS = [
  'lines',
  'records',
  'invalidJson',
  'invalidUtf8',
  'gluedObjects',
  'wrongShape',
  'oversizedLines',
  'truncatedLastLine',
  'emptyLines',
] as const;

/** Every session file's last parse report, by path. */
export function readFileParseReports(database: IndexDatabase): FileParseReport[] {
  const rows = database
    .prepare("SELECT path, runner, report FROM sources WHERE kind = 'session' AND report IS NOT NULL ORDER BY path")
    .all() as { path: string; runner: string | null; report: string }[];
  const reports: FileParseReport[] = [];
  for (const row of rows) {
    try {
      reports.push({ path: row.path, runner: row.runner, report: JSON.parse(row.report) as ParseReport });
    } catch {
      // A report the index itself wrote is JSON; a damaged row is left out rather than failing the status.
    }
  }
  return reports;
}

export function sumParseReports(reports: readonly FileParseReport[]): ParseTotals {
  const totals: ParseTotals = {
    files: reports.length,
    filesWithOddities: 0,
    lines: 0,
    records: 0,
    invalidJson: 0,
    invalidUtf8: 0,
    gluedObjects: 0,
    wrongShape: 0,
    oversizedLines: 0,
    truncatedLastLine: 0,
    emptyLines: 0,
    unknownRecordTypes: Object.create(null) as Record<string, number>,
  };
  for (const { report } of reports) {
    for (const counter of COUNTERS) totals[counter] += Number(report[counter]) || 0;
    const unknown = Object.entries(report.unknownRecordTypes ?? {});
    for (const [type, count] of unknown)
      totals.unknownRecordTypes[type] = (totals.unknownRecordTypes[type] ?? 0) + count;
    const odd =
      report.invalidJson + report.invalidUtf8 + report.gluedObjects + report.wrongShape + report.oversizedLines > 0 ||
      unknown.length > 0;
    if (odd) totals.filesWithOddities += 1;
  }
  return { ...totals, unknownRecordTypes: { ...totals.unknownRecordTypes } };
}
