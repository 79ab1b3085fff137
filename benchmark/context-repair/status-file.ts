import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../runtime/fs/index.ts';

export const RUNS_MARKER = '<!-- new run rows go above this line -->';

export interface StatusRow {
  date: string;
  model: string;
  scripted: boolean;
  caseSetHash: string;
  generatorVersion: number;
  weftVersion: string;
  nodeVersion: string;
  expected: number;
  traced: number;
  missing: number;
  /** Replay steps of recompute-descendants traced, of those expected. */
  regenerationsTraced: number;
  regenerationsExpected: number;
  /** Traces written this run (final requests and Replay steps). */
  written: number;
  failed: number;
}

export function statusRow(row: StatusRow): string {
  const kind = row.scripted ? 'scripted reference (not a model result)' : 'model';
  return `| ${row.date} | \`${row.model}\` | ${kind} | \`${row.caseSetHash.slice(0, 12)}\` | ${row.generatorVersion} | ${row.weftVersion} | ${row.nodeVersion} | ${row.expected} | ${row.traced} | ${row.missing} | ${row.regenerationsTraced}/${row.regenerationsExpected} | ${row.written} | ${row.failed} |`;
}

/** Adds one row to STATUS.md's run table (atomically); corrections are written by hand, dated, below it. */
export async function appendStatusRow(path: string, row: StatusRow): Promise<void> {
  const text = await readFile(path, 'utf8');
  const at = text.indexOf(RUNS_MARKER);
  if (at < 0)
    throw Object.assign(new Error(`${path} has no run table marker (${RUNS_MARKER})`), { code: 'status-format' });
  await writeFileAtomic(path, `${text.slice(0, at)}${statusRow(row)}\n${text.slice(at)}`);
}
