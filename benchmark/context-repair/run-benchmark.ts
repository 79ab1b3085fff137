import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../runtime/fs/index.ts';
import { openBenchModel, type BenchModel } from './bench-model.ts';
import type { RetryEnvironment } from './call-retry.ts';
import { capture, captureItems, regenerationItems, type CaptureReport } from './capture.ts';
import type { CaseSet } from './generate-cases.ts';
import { writeFigures } from './run-figures.ts';
import { scoreRun, type RunScores } from './score-run.ts';
import { appendStatusRow } from './status-file.ts';
import { TraceStore } from './trace-store.ts';

export interface RunOptions {
  model: string;
  caseSet: CaseSet;
  /** Where runs live: `<runsDirectory>/<model slug>/{manifest.json,traces/,scores.json,figures/}`. */
  runsDirectory: string;
  limit?: number;
  concurrency?: number;
  /** STATUS.md to add the run's row to (none in quick mode). */
  statusPath?: string;
  versions?: { weft: string; node: string };
  onProgress?: (done: number, total: number) => void;
  /** An already opened model (tests); else opened from the id and closed at the end. */
  openModel?: (id: string) => Promise<BenchModel>;
  /** How failed calls are retried (`call-retry.ts`); the default policy when absent. */
  retry?: RetryEnvironment;
}

export interface RunResult {
  directory: string;
  report: CaptureReport;
  scores: RunScores;
  figures: string[];
}

/**
 * Bumped when what a run captures changes. 3: traces record their retries (and the case set is generator 2). 2: `recompute-descendants` asks the model to regenerate each
 * descendant (its own trace) instead of writing the correct values in; a version-1 run directory is refused.
 */
export const CAPTURE_VERSION = 3;

interface Manifest {
  format: 'weft.context-repair.run';
  captureVersion: number;
  model: string;
  scripted: boolean;
  caseSetHash: string;
  generatorVersion: number;
  seed: number;
  perCell: number;
  /** Every item the run should trace (`caseId/condition`). */
  items: string[];
  /** Every Replay step of `recompute-descendants` the run should trace, in capture order. */
  regenerations: string[];
}

export function modelSlug(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** Reads the run's manifest, or writes it on the first capture; a different case set is refused. */
async function ensureManifest(directory: string, manifest: Manifest): Promise<Manifest> {
  const path = join(directory, 'manifest.json');
  try {
    const existing = JSON.parse(await readFile(path, 'utf8')) as Manifest;
    if ((existing.captureVersion ?? 1) !== manifest.captureVersion)
      throw Object.assign(
        new Error(
          `${path} was captured by version ${existing.captureVersion ?? 1} of the benchmark, not ${manifest.captureVersion}: use another runs directory`,
        ),
        { code: 'capture-version-changed' },
      );
    if (existing.caseSetHash !== manifest.caseSetHash)
      throw Object.assign(
        new Error(
          `${path} belongs to case set ${existing.caseSetHash.slice(0, 12)}, not ${manifest.caseSetHash.slice(0, 12)}: use another runs directory`,
        ),
        { code: 'case-set-changed' },
      );
    return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(directory, { recursive: true });
    await writeFileAtomic(path, `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  }
}

/** Re-scores a run directory from its manifest and traces alone, and redraws its figures. */
export async function scoreDirectory(directory: string): Promise<{ scores: RunScores; figures: string[] }> {
  const manifest = JSON.parse(await readFile(join(directory, 'manifest.json'), 'utf8')) as Manifest;
  const { traces, corrupt } = await new TraceStore(join(directory, 'traces')).readAll();
  const scores = scoreRun(
    {
      model: manifest.model,
      scripted: manifest.scripted,
      caseSetHash: manifest.caseSetHash,
      expected: manifest.items,
      regenerations: manifest.regenerations ?? [],
    },
    traces,
    corrupt,
  );
  await writeFileAtomic(join(directory, 'scores.json'), `${JSON.stringify(scores, null, 2)}\n`);
  const figures = await writeFigures(scores, join(directory, 'figures'));
  return { scores, figures };
}

/** capture → traces → score → figures (→ a STATUS.md row) for one model. */
export async function runBenchmark(options: RunOptions): Promise<RunResult> {
  const directory = join(options.runsDirectory, modelSlug(options.model));
  const model = await (options.openModel ?? openBenchModel)(options.model);
  try {
    await ensureManifest(directory, {
      format: 'weft.context-repair.run',
      captureVersion: CAPTURE_VERSION,
      model: model.id,
      scripted: model.scripted,
      caseSetHash: options.caseSet.hash,
      generatorVersion: options.caseSet.generatorVersion,
      seed: options.caseSet.seed,
      perCell: options.caseSet.perCell,
      items: captureItems(options.caseSet).map((item) => item.key),
      regenerations: regenerationItems(options.caseSet),
    });
    const report = await capture(options.caseSet, model, new TraceStore(join(directory, 'traces')), {
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
    const { scores, figures } = await scoreDirectory(directory);
    if (options.statusPath)
      await appendStatusRow(options.statusPath, {
        date: new Date().toISOString().slice(0, 16).replace('T', ' '),
        model: model.id,
        scripted: model.scripted,
        caseSetHash: options.caseSet.hash,
        generatorVersion: options.caseSet.generatorVersion,
        weftVersion: options.versions?.weft ?? 'unknown',
        nodeVersion: options.versions?.node ?? process.version,
        expected: scores.expected,
        traced: scores.traced,
        missing: scores.missing.length,
        regenerationsTraced: scores.regeneration.expected - scores.regeneration.missing.length,
        regenerationsExpected: scores.regeneration.expected,
        written: report.written,
        failed: report.failed.length,
      });
    return { directory, report, scores, figures };
  } finally {
    await model.close();
  }
}
