/** Types for `test-tally.mjs` (plain JavaScript so `scripts/test.mjs` can run it without a TypeScript loader). */
export interface TestOutcome {
  file: string;
  name: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  mode: string;
  note?: string;
}
export interface Tally {
  passed: number;
  failed: number;
  skipped: { file: string; name: string; reason: string }[];
}
export function skipReason(outcome: TestOutcome): string;
export function tallyTests(outcomes: TestOutcome[]): Tally;
export function mergeTallies(tallies: Tally[]): Tally;
export function summaryLines(tally: Tally): string[];
