import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCH_FIGURES } from './bench-figures.ts';
import { missingFigures, parseFigures, runQuick } from './run-quick.ts';

const scripts = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('benchmarks (quick mode; the browser ones run in e2e/benchmarks.e2e.ts)', () => {
  it('lists every bench:* npm script, and only those', () => {
    const benches = Object.keys(scripts).filter((name) => name.startsWith('bench:'));
    expect(BENCH_FIGURES.map((entry) => entry.script).sort()).toEqual(benches.sort());
  });

  it('reads figure lines and names what is missing', () => {
    const figures = parseFigures(
      'cores: 2 cores\natlas list time: 2.1 ms\nbroken_ms: NaN ms\nnoise line\nrg_find_ms: 3 ms',
    );
    expect([...figures.keys()]).toEqual(['cores', 'atlas list time', 'rg_find_ms']);
    const entry = { script: 'x', chromium: false, figures: ['cores', 'broken_ms', ['rg_find_ms', 'grep_find_ms']] };
    expect(missingFigures(entry, figures)).toEqual(['broken_ms']);
  });

  for (const entry of BENCH_FIGURES.filter((bench) => !bench.chromium)) {
    it(`${entry.script} runs to completion and prints every figure`, async () => {
      const run = await runQuick(entry.script, 170_000);
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      expect(missingFigures(entry, run.figures), run.stderr.slice(-2000)).toEqual([]);
    }, 180_000);
  }
});
