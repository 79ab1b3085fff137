import type { ParseReport } from '../../protocol/index.ts';
import { getOwn, setOwn } from './own-record.ts';

export function emptyParseReport(): ParseReport {
  return {
    lines: 0,
    records: 0,
    emptyLines: 0,
    invalidJson: 0,
    gluedObjects: 0,
    truncatedLastLine: 0,
    invalidUtf8: 0,
    oversizedLines: 0,
    unknownRecordTypes: {},
    wrongShape: 0,
  };
}

export function countUnknownType(report: ParseReport, type: string): void {
  const key = type.length > 80 ? type.slice(0, 80) : type;
  setOwn(report.unknownRecordTypes, key, (getOwn(report.unknownRecordTypes, key) ?? 0) + 1);
}
