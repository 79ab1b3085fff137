import { describe, expect, it } from 'vitest';
import { BENCH_FIGURES } from '../benchmark/perf/bench-figures.ts';
import { missingFigures, runQuick } from '../benchmark/perf/run-quick.ts';

// The benchmarks that drive the built app in Chromium, in quick mode (the Node ones run in the unit project).
describe('browser benchmarks (quick mode)', () => {
  for (const entry of BENCH_FIGURES.filter((bench) => bench.chromium)) {
    it(`${entry.script} runs to completion and prints every figure`, async () => {
      const run = await runQuick(entry.script, 170_000);
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      expect(missingFigures(entry, run.figures), run.stderr.slice(-2000)).toEqual([]);
    }, 180_000);
  }
});
