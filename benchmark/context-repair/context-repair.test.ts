import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_MARK } from '../../src/core/index.ts';
import { generateCases } from './generate-cases.ts';
import { runBenchmark, scoreDirectory, type RunResult } from './run-benchmark.ts';
import { scriptedAnswer } from './scripted-models.ts';
import { TraceStore, type Trace } from './trace-store.ts';

// One case per family and depth (27 cases × 7 conditions), through the real provider path on 127.0.0.1.
const caseSet = generateCases({ perCell: 1 });
let root: string;
let adopt: RunResult;
let heed: RunResult;

const score = (result: RunResult, condition: string) =>
  result.scores.conditions.find((entry) => entry.condition === condition)!;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'context-repair-test-'));
  const status = join(root, 'STATUS.md');
  await writeFile(status, '| runs |\n<!-- new run rows go above this line -->\n');
  adopt = await runBenchmark({
    model: 'scripted/adopt',
    caseSet,
    runsDirectory: root,
    concurrency: 4,
    statusPath: status,
  });
  heed = await runBenchmark({
    model: 'scripted/heed-stale',
    caseSet,
    runsDirectory: root,
    concurrency: 4,
    statusPath: status,
  });
}, 240_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('context-repair benchmark, end to end with the scripted models', () => {
  it('traces every condition of every case, each named by the SHA-256 of its content', async () => {
    expect(adopt.report.written).toBe(27 * 7);
    expect(adopt.scores.missing).toEqual([]);
    const names = await readdir(join(adopt.directory, 'traces'));
    expect(names).toHaveLength(189);
    const trace = JSON.parse(await readFile(join(adopt.directory, 'traces', names[0]!), 'utf8')) as Trace;
    expect(trace.scripted).toBe(true);
    expect(trace.settings.temperature).toBe(0);
    expect(trace.requestHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the adopting model adopts the pollution; pruning the subgraph or recomputing repairs it; the mark does not help it', () => {
    expect(score(adopt, 'clean').accuracy).toBe(1);
    expect(score(adopt, 'polluted').adoption).toBe(1);
    expect(score(adopt, 'subgraph-prune').accuracy).toBe(1);
    expect(score(adopt, 'recompute-descendants').accuracy).toBe(1);
    // Pruning only the source leaves a residue wherever a contaminated descendant remains (depths 2 and 3).
    for (const condition of ['source-prune', 'source-prune-stale', 'stale-instruction']) {
      expect(score(adopt, condition).byDepth['1']!.accuracy).toBe(1);
      expect(score(adopt, condition).byDepth['2']!.accuracy).toBe(0);
      expect(score(adopt, condition).byDepth['3']!.accuracy).toBe(0);
    }
    expect(score(adopt, 'source-prune-stale').adoption).toBeGreaterThan(0.5);
  });

  it('the stale-heeding model recovers under the stale mark and only there', () => {
    expect(score(heed, 'polluted').adoption).toBe(1);
    expect(score(heed, 'source-prune').byDepth['3']!.accuracy).toBe(0);
    expect(score(heed, 'source-prune-stale').accuracy).toBe(1);
    expect(score(heed, 'stale-instruction').accuracy).toBe(1);
    const comparison = heed.scores.comparisons.find((entry) => entry.condition === 'source-prune-stale')!;
    expect(comparison).toMatchObject({ pairs: 27, better: 27, worse: 0 });
    expect(comparison.pHolm).toBeLessThan(0.001);
  });

  it('writes SVG and PNG figures and a STATUS.md row per run', async () => {
    expect(heed.figures).toContain('accuracy-by-depth.svg');
    const svg = await readFile(join(heed.directory, 'figures', 'accuracy-by-depth.svg'), 'utf8');
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('not a model result');
    const png = await readFile(join(heed.directory, 'figures', 'adoption-by-condition.png'));
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const status = await readFile(join(root, 'STATUS.md'), 'utf8');
    expect(status).toMatch(
      /`scripted\/adopt` \| scripted reference \(not a model result\) .*\| 189 \| 189 \| 0 \| 189 \| 0 \|/,
    );
    expect(status.indexOf('scripted/adopt')).toBeLessThan(status.indexOf('scripted/heed-stale'));
  });

  it('re-scores with a deleted trace: the trace is reported and counted, and a re-run captures only it', async () => {
    const directory = join(root, 'scripted_adopt');
    const names = (await readdir(join(directory, 'traces'))).sort();
    const removed = JSON.parse(await readFile(join(directory, 'traces', names[0]!), 'utf8')) as Trace;
    await unlink(join(directory, 'traces', names[0]!));
    const { scores } = await scoreDirectory(directory);
    expect(scores.missing).toEqual([removed.item]);
    expect(scores.conditions.find((entry) => entry.condition === removed.condition)!.missing).toBe(1);
    const resumed = await runBenchmark({ model: 'scripted/adopt', caseSet, runsDirectory: root });
    expect(resumed.report).toMatchObject({ skipped: 188, written: 1, failed: [] });
    expect(resumed.scores.missing).toEqual([]);
  });

  it('never overwrites a trace, and stores it read-only', async () => {
    const store = new TraceStore(join(heed.directory, 'traces'));
    const [trace] = (await store.readAll()).traces;
    await expect(store.write(trace!)).rejects.toMatchObject({ code: 'trace-exists' });
    const digest = (await readdir(join(heed.directory, 'traces')))[0]!;
    expect((await stat(join(heed.directory, 'traces', digest))).mode & 0o222).toBe(0);
  });
});

describe('the scripted models', () => {
  const messages = [
    { role: 'user', text: '[Note]\nDefinitions (exact):\nA = 4\nB = A + 1\nC = B * 2' },
    { role: 'user', text: 'What is B? B = A + 1.' },
    { role: 'assistant', text: `${STALE_MARK}\nB = 9` },
    {
      role: 'user',
      text: '[Reference (quoted answer)]\n```\nQuestion: What is B?\nAnswer: ' + STALE_MARK + '\nB = 9\n```',
    },
    { role: 'user', text: 'What is C? C = B * 2. Reply with the number only.' },
  ];
  it('adopt takes the value stated last; heed-stale skips values under the stale mark', () => {
    expect(scriptedAnswer('adopt', messages)).toBe('18');
    expect(scriptedAnswer('heed-stale', messages)).toBe('10');
  });
});
