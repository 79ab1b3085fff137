import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../tests/support/browser.ts';
import { mergeTallies, summaryLines, tallyTests, type TestOutcome } from './test-tally.mjs';

/** `npm test`'s last lines, from a real vitest run of a sample file with one test of each outcome. */
const folder = mkdtempSync(join(tmpdir(), 'weft-tally-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function runSample(): TestOutcome[] {
  const output = join(folder, 'sample.json');
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'scripts/testing/tally-sample.config.ts'],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, WEFT_TEST_TALLY_FILE: output } },
  );
  expect(run.status).toBe(1); // the sample's one failing test
  return JSON.parse(readFileSync(output, 'utf8')) as TestOutcome[];
}

describe('the test tally', () => {
  it('counts passed, failed and skipped tests and names each skip with its reason', () => {
    const lines = summaryLines(tallyTests(runSample()));
    const file = 'scripts/testing/tally-sample.fixture.ts';
    expect(lines).toEqual([
      `skipped: ${file} › skips with a reason — the pinned CLIs are not installed`,
      `skipped: ${file} › is skipped by its flag — skipped without a reason (it.skip / skipIf; give one with context.skip(reason))`,
      `skipped: ${file} › is still to write — marked todo`,
      'tests: 1 passed, 1 failed, 3 skipped',
    ]);
  }, 60_000);

  it('adds the projects up, and counts a test that never finished as failed', () => {
    const unit = tallyTests([
      { file: 'a.test.ts', name: 'one', state: 'passed', mode: 'run' },
      { file: 'a.test.ts', name: 'two', state: 'pending', mode: 'run' },
    ]);
    const e2e = tallyTests([{ file: 'b.e2e.ts', name: 'three', state: 'skipped', mode: 'run', note: 'no Chromium' }]);
    expect(summaryLines(mergeTallies([unit, e2e]))).toEqual([
      'skipped: b.e2e.ts › three — no Chromium',
      'tests: 1 passed, 1 failed, 1 skipped',
    ]);
  });

  it('keeps the form CI reads: "N passed, N failed" then ", N skipped"', () => {
    const last = summaryLines({ passed: 12, failed: 0, skipped: [] }).at(-1)!;
    expect(last).toMatch(/^tests: \d+ passed, \d+ failed, \d+ skipped$/);
  });
});
