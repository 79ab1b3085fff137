import { describe, expect, it } from 'vitest';
import { BENCH_FIGURES } from '../benchmark/perf/bench-figures.ts';
import { missingFigures, runQuick } from '../benchmark/perf/run-quick.ts';

// The benchmarks that drive the built app in Chromium, in quick mode (the Node ones run in the unit project).
// bench:ui's quick mode takes ~45 s on a quiet machine and ~100 s at load 13 (it starts the app, three canvases,
// a minimal page per size): the bound is a hang detector, not a timing, so it leaves room for a loaded CI machine.
describe('browser benchmarks (quick mode)', () => {
  for (const entry of BENCH_FIGURES.filter((bench) => bench.chromium)) {
    it(`${entry.script} runs to completion and prints every figure`, async () => {
      const run = await runQuick(entry.script, 290_000);
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      expect(missingFigures(entry, run.figures), run.stderr.slice(-2000)).toEqual([]);
    }, 300_000);
  }
});
