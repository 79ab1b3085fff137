/**
 * Runs one `bench:*` npm script in quick mode (`WEFT_BENCH_QUICK=1`) and reads its figure lines, for the tests
 * that keep the benchmarks from rotting (`benchmarks.test.ts`, `e2e/benchmarks.e2e.ts`).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchFigures } from './bench-figures.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** `name: value unit…`: a name (words, spaces allowed), a finite decimal number, then its unit. */
const FIGURE = /^([^:]+): (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?) (\S.*)$/;

export interface QuickRun {
  exitCode: number | null;
  /** Figure name → value, for every line shaped like a figure. */
  figures: Map<string, number>;
  seconds: number;
  stderr: string;
}

export function parseFigures(stdout: string): Map<string, number> {
  const figures = new Map<string, number>();
  for (const line of stdout.split('\n')) {
    const match = FIGURE.exec(line.trim());
    if (match) figures.set(match[1]!, Number(match[2]));
  }
  return figures;
}

/** The expected names `figures` lacks (for an alternative, when none of them is there). */
export function missingFigures(entry: BenchFigures, figures: ReadonlyMap<string, number>): string[] {
  return entry.figures
    .filter((names) => {
      const options = typeof names === 'string' ? [names] : names;
      return !options.some((name) => Number.isFinite(figures.get(name)));
    })
    .map((names) => (typeof names === 'string' ? names : names.join(' | ')));
}

export function runQuick(script: string, timeoutMs: number): Promise<QuickRun> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: repoRoot,
    env: { ...process.env, WEFT_BENCH_QUICK: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a timeout ends the benchmark's children (tsx, servers, Chromium) with it.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  }, timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, figures: parseFigures(stdout), seconds: (performance.now() - started) / 1000, stderr });
    });
  });
}
