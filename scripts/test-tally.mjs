// The counts `npm test` ends with. Each vitest project's run is written by test-tally-reporter.mjs as a list of
// test outcomes; this adds them up and names every skipped test with its reason, so a skip is never silent.

/** @typedef {{ file: string, name: string, state: 'passed' | 'failed' | 'skipped' | 'pending', mode: string, note?: string }} TestOutcome */
/** @typedef {{ passed: number, failed: number, skipped: { file: string, name: string, reason: string }[] }} Tally */

/** Why a test was skipped: the note given to `context.skip(note)`, else the flag that skipped it. */
export function skipReason(outcome) {
  if (outcome.note) return outcome.note;
  if (outcome.mode === 'todo') return 'marked todo';
  return 'skipped without a reason (it.skip / skipIf; give one with context.skip(reason))';
}

/** @param {TestOutcome[]} outcomes @returns {Tally} */
export function tallyTests(outcomes) {
  const tally = { passed: 0, failed: 0, skipped: [] };
  for (const outcome of outcomes) {
    if (outcome.state === 'passed') tally.passed += 1;
    // A test that never finished (the run was cut short) did not pass.
    else if (outcome.state === 'failed' || outcome.state === 'pending') tally.failed += 1;
    else tally.skipped.push({ file: outcome.file, name: outcome.name, reason: skipReason(outcome) });
  }
  return tally;
}

/** @param {Tally[]} tallies @returns {Tally} */
export function mergeTallies(tallies) {
  return {
    passed: tallies.reduce((sum, tally) => sum + tally.passed, 0),
    failed: tallies.reduce((sum, tally) => sum + tally.failed, 0),
    skipped: tallies.flatMap((tally) => tally.skipped),
  };
}

/** The last lines of `npm test`: each skipped test with its reason, then `tests: N passed, N failed, N skipped`. */
export function summaryLines(tally) {
  const lines = tally.skipped.map((skip) => `skipped: ${skip.file} › ${skip.name} — ${skip.reason}`);
  lines.push(`tests: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped.length} skipped`);
  return lines;
}
