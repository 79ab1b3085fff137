/**
 * Atlas read performance, printed as `name: value unit` lines (figures go to benchmark/perf/README.md,
 * "## Atlas adapters"). Builds a corpus from the fixture sessions (copied `WEFT_ATLAS_COPIES` times,
 * default 40) in a temporary folder, then times listing, a full read, a resume after an append, and
 * reports the saved-state size. Run: `npm run bench:atlas-adapters` (`WEFT_BENCH_QUICK=1`: one copy).
 */
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Fence, listSessionFiles, readSessionFile, type ReadSessionResult } from '../../runtime/atlas/index.ts';
import { announceQuickMode, scale } from './quick-mode.ts';

const copies = Number(process.env['WEFT_ATLAS_COPIES'] ?? scale('40', '1'));
const fixtures = process.env['WEFT_FIXTURES'] ?? fileURLToPath(new URL('../../tests/fixtures', import.meta.url));

function print(name: string, value: number, unit: string, digits = 1): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

async function main(): Promise<void> {
  announceQuickMode();
  const base = mkdtempSync(path.join(tmpdir(), 'atlas-measure-'));
  try {
    const sources = (
      await listSessionFiles(new Fence([path.join(fixtures, 'real-sessions'), path.join(fixtures, 'sessions')]))
    ).map((file) => file.path);
    for (let copy = 0; copy < copies; copy += 1) {
      sources.forEach((source, index) => {
        const directory = path.join(base, `c${copy}`, `p${index}`);
        mkdirSync(directory, { recursive: true });
        copyFileSync(source, path.join(directory, path.basename(source)));
      });
    }
    const fence = new Fence([base]);
    print('cpus', availableParallelism(), 'cores', 0);

    let started = performance.now();
    const files = await listSessionFiles(fence);
    print('atlas list files', files.length, 'files', 0);
    print('atlas list time', performance.now() - started, 'ms');

    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    let lines = 0;
    let turns = 0;
    let stateBytes = 0;
    const results = new Map<string, ReadSessionResult>();
    started = performance.now();
    for (const file of files) {
      const result = await readSessionFile(file.path, { fence, linkParent: false });
      lines += result.report.lines;
      turns += result.sessions.reduce((sum, session) => sum + session.turns.length, 0);
      stateBytes += result.state.length;
      results.set(file.path, result);
    }
    const seconds = (performance.now() - started) / 1000;
    print('atlas read bytes', bytes / 1024 / 1024, 'MiB');
    print('atlas read throughput', bytes / 1024 / 1024 / seconds, 'MiB/s');
    print('atlas read lines', lines / seconds, 'lines/s', 0);
    print('atlas read turns', turns / seconds, 'turns/s', 0);
    print('atlas saved state size', (stateBytes / bytes) * 100, '% of file bytes');
    print('atlas heap used', process.memoryUsage().heapUsed / 1024 / 1024, 'MiB');

    // Resume after appending ten lines to the largest file, against a full re-read of it.
    const largest = [...files].sort((left, right) => right.size - left.size)[0]!;
    const previous = results.get(largest.path)!;
    const text = readFileSync(largest.path, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0);
    appendFileSync(largest.path, `${text.slice(-10).join('\n')}\n`);
    const resumeTimes: number[] = [];
    const fullTimes: number[] = [];
    for (let round = 0; round < scale(5, 2); round += 1) {
      started = performance.now();
      await readSessionFile(largest.path, {
        fence,
        fromOffset: previous.bytesConsumed,
        state: previous.state,
        linkParent: false,
      });
      resumeTimes.push(performance.now() - started);
      started = performance.now();
      await readSessionFile(largest.path, { fence, linkParent: false });
      fullTimes.push(performance.now() - started);
    }
    const median = (values: number[]): number => [...values].sort((left, right) => left - right)[values.length >> 1]!;
    print('atlas largest file', largest.size / 1024 / 1024, 'MiB', 2);
    print('atlas resume after append', median(resumeTimes), 'ms');
    print('atlas full re-read of same file', median(fullTimes), 'ms');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
