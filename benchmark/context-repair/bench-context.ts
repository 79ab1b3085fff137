/**
 * `npm run bench:context -- --model <provider/model> [--limit N] [--concurrency K] [--runs-dir DIR]`
 * The context-repair benchmark (C28): capture → immutable traces → score → figures → a STATUS.md row.
 * Quick mode (`WEFT_BENCH_QUICK=1`, no `--model`): both scripted models on one case per family and depth, in a
 * temporary directory, printing figure lines for `benchmark/perf/benchmarks.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { announceQuickMode, QUICK } from '../perf/quick-mode.ts';
import { CONDITIONS } from './conditions.ts';
import { generateCases } from './generate-cases.ts';
import { progressLine } from './progress-line.ts';
import { runBenchmark, type RunResult } from './run-benchmark.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const weftVersion = (JSON.parse(readFileSync(join(here, '../../package.json'), 'utf8')) as { version: string }).version;

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new Error(`--${name} needs a positive whole number, got "${value}"`);
  return number;
}

function printResult(prefix: string, result: RunResult): void {
  const slug = prefix.replace(/[^a-z0-9]+/g, '_');
  console.log(`${slug}_traces_written: ${result.report.written} traces`);
  console.log(`${slug}_traces_missing: ${result.scores.missing.length} traces`);
  const regeneration = result.scores.regeneration;
  console.log(`${slug}_regenerations_missing: ${regeneration.missing.length} traces (of ${regeneration.expected})`);
  console.log(
    `${slug}_regeneration_accuracy: ${regeneration.accuracy.toFixed(3)} fraction (n = ${regeneration.n}, adoption ${regeneration.adoption.toFixed(3)})`,
  );
  for (const entry of result.scores.unscorable)
    console.error(
      `${prefix}: ${entry.item} not scored: regeneration traces missing: ${entry.missingRegenerations.join(', ')}`,
    );
  for (const entry of result.scores.conditions) {
    const name = entry.condition.replace(/-/g, '_');
    console.log(`${slug}_accuracy_${name}: ${entry.accuracy.toFixed(3)} fraction (n = ${entry.n})`);
    console.log(`${slug}_adoption_${name}: ${entry.adoption.toFixed(3)} fraction`);
  }
  for (const comparison of result.scores.comparisons)
    console.error(
      `${prefix}: ${comparison.condition} vs polluted: +${comparison.better} −${comparison.worse} of ${comparison.pairs}, exact McNemar p = ${comparison.p.toPrecision(3)}, Holm ${comparison.pHolm.toPrecision(3)}`,
    );
  if (result.report.failed.length > 0)
    console.error(
      `${prefix}: ${result.report.failed.length} requests failed (not traced; a re-run retries them), first: ${result.report.failed[0]!.code} ${result.report.failed[0]!.message}`,
    );
  console.error(`${prefix}: traces, scores.json and figures in ${result.directory}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' },
      limit: { type: 'string' },
      concurrency: { type: 'string' },
      'runs-dir': { type: 'string' },
    },
    strict: true,
  });
  announceQuickMode();
  const limit = positive('limit', values.limit);
  const concurrency = positive('concurrency', values.concurrency) ?? 4;
  const caseSet = generateCases(QUICK ? { perCell: 1 } : {});
  const models = values.model ? [values.model] : QUICK ? ['scripted/adopt', 'scripted/heed-stale'] : [];
  if (models.length === 0)
    throw new Error(
      'usage: npm run bench:context -- --model <provider/model> [--limit N] [--concurrency K] [--runs-dir DIR]',
    );
  // Quick runs are checks, not results: they go to a temporary directory and add no STATUS.md row.
  const scratch = QUICK && !values['runs-dir'] ? await mkdtemp(join(tmpdir(), 'weft-bench-context-')) : null;
  const runsDirectory = values['runs-dir'] ?? scratch ?? join(here, 'runs');
  console.log(`cases: ${caseSet.cases.length} cases`);
  console.log(`conditions: ${CONDITIONS.length} conditions`);
  try {
    for (const model of models) {
      const progress = progressLine(model);
      const result = await runBenchmark({
        model,
        caseSet,
        runsDirectory,
        concurrency,
        ...(limit !== undefined ? { limit } : {}),
        ...(QUICK ? {} : { statusPath: join(here, 'STATUS.md') }),
        versions: { weft: weftVersion, node: process.version },
        onProgress: progress.update,
      });
      progress.done();
      printResult(model, result);
    }
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  console.error(`bench:context: ${(error as Error).message}${typeof code === 'string' ? ` [${code}]` : ''}`);
  process.exitCode = 1;
});
