import type { Version } from '../../protocol/index.ts';

/** One check's result on one answer, as the Compare view's rows and the card's dots show it. */
export interface CheckResult {
  checkId: string;
  label: string;
  passed: boolean;
}

/**
 * Issue 31, part 3 slot: the check results recorded on a version. Versions carry none yet (checks are built on
 * another branch); this is the one place the Compare view and the card's strip read them from, so they render
 * nothing until it returns some.
 */
export function checkResultsOf(_version: Version): readonly CheckResult[] {
  return [];
}
