import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_MARK } from '../../src/core/index.ts';
import { openBenchModel, type BenchModel } from './bench-model.ts';
import { capture, regenerationItems } from './capture.ts';
import { generateCases } from './generate-cases.ts';
import { RecomputeSession } from './recompute-session.ts';
import { runBenchmark, scoreDirectory, type RunResult } from './run-benchmark.ts';
import { scriptedAnswer } from './scripted-models.ts';
import { TraceStore, type Trace } from './trace-store.ts';

// One case per family and depth (27 cases × 7 conditions), through the real provider path on 127.0.0.1.
const caseSet = generateCases({ perCell: 1 });
// Plus one trace per contaminated descendant that recompute-descendants re-asks the model.
const regenerations = regenerationItems(caseSet).length;
const readTraces = async (directory: string) => (await new TraceStore(join(directory, 'traces')).readAll()).traces;
const lastUserText = (trace: Pick<Trace, 'request'>) =>
  trace.request.messages
    .filter((message) => message.role === 'user')
    .at(-1)!
    .content.map((part) => (part.type === 'text' ? part.text : ''))
    .join('');
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
    expect(regenerations).toBe(caseSet.cases.reduce((sum, item) => sum + item.contaminated.length, 0));
    expect(regenerations).toBeGreaterThan(27);
    expect(adopt.report.written).toBe(27 * 7 + regenerations);
    expect(adopt.scores.missing).toEqual([]);
    expect(adopt.scores.regeneration).toMatchObject({ expected: regenerations, n: regenerations, missing: [] });
    const names = await readdir(join(adopt.directory, 'traces'));
    expect(names).toHaveLength(189 + regenerations);
    const trace = JSON.parse(await readFile(join(adopt.directory, 'traces', names[0]!), 'utf8')) as Trace;
    expect(trace.scripted).toBe(true);
    expect(trace.settings.temperature).toBe(0);
    expect(trace.requestHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the adopting model adopts the pollution; pruning the subgraph or recomputing repairs it; the mark does not help it', () => {
    expect(score(adopt, 'clean').accuracy).toBe(1);
    expect(score(adopt, 'polluted').adoption).toBe(1);
    expect(score(adopt, 'subgraph-prune').accuracy).toBe(1);
    // Its own regenerations, from the corrected source, are right; so is the target asked on them.
    expect(adopt.scores.regeneration.accuracy).toBe(1);
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
      new RegExp(
        `\`scripted/adopt\` \\| scripted reference \\(not a model result\\) .*\\| 189 \\| 189 \\| 0 \\| ${regenerations}/${regenerations} \\| ${189 + regenerations} \\| 0 \\|`,
      ),
    );
    expect(status.indexOf('scripted/adopt')).toBeLessThan(status.indexOf('scripted/heed-stale'));
  });

  it('re-scores with a deleted trace: the trace is reported and counted, and a re-run captures only it', async () => {
    const directory = join(root, 'scripted_adopt');
    const names = (await readdir(join(directory, 'traces'))).sort();
    // The first scored (final) trace by name; regeneration traces have their own test below.
    const traces = await Promise.all(
      names.map(async (name) => JSON.parse(await readFile(join(directory, 'traces', name), 'utf8')) as Trace),
    );
    const index = traces.findIndex((trace) => trace.step === 'final');
    const removed = traces[index]!;
    await unlink(join(directory, 'traces', names[index]!));
    const { scores } = await scoreDirectory(directory);
    expect(scores.missing).toEqual([removed.item]);
    expect(scores.conditions.find((entry) => entry.condition === removed.condition)!.missing).toBe(1);
    const resumed = await runBenchmark({ model: 'scripted/adopt', caseSet, runsDirectory: root });
    expect(resumed.report).toMatchObject({ skipped: 188, written: 1, failed: [] });
    expect(resumed.scores.missing).toEqual([]);
  });

  it('the final recompute request holds the regenerated replies, and each was asked on the replies before it', async () => {
    const traces = await readTraces(adopt.directory);
    const benchCase = caseSet.cases.find((item) => item.family === 'chain' && item.depth === 3)!;
    const steps = new RecomputeSession(benchCase, 'scripted/adopt').steps;
    const regenerated = steps.map((step) => traces.find((trace) => trace.item === step.key)!);
    const final = traces.find((trace) => trace.item === `${benchCase.id}/recompute-descendants`)!;
    expect(regenerated.map((trace) => [trace.step, trace.replayIndex, trace.regenerates])).toEqual(
      steps.map((step) => ['regenerate', step.index, step.name]),
    );
    // The model's own replies (bare numbers), not the benchmark's `D = 22` oracle text.
    const answers = (trace: Trace) =>
      trace.request.messages
        .filter((message) => message.role === 'assistant')
        .map((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
    expect(answers(final).slice(-steps.length)).toEqual(regenerated.map((trace) => trace.answer));
    expect(regenerated.map((trace) => trace.answer)).toEqual(steps.map((step) => String(step.gold)));
    for (const step of steps) expect(answers(final)).not.toContain(`${step.name} = ${step.gold}`);
    expect(final.regenerations.map((reference) => reference.item)).toEqual(steps.map((step) => step.key));
    // The second step's context already holds the first step's reply.
    expect(answers(regenerated[1]!).at(-1)).toBe(regenerated[0]!.answer);
    expect(lastUserText(final)).toContain('Reply with the number only.');
    // A Replay step asks for the number only too: its reply becomes the node's answer, verbatim.
    for (const trace of regenerated)
      expect(lastUserText(trace)).toMatch(
        new RegExp(`What is ${trace.regenerates}\\?.* Reply with the number only\\.$`),
      );
  });

  it('a deleted regeneration trace is reported, the final request on it is counted missing, and a re-run asks only it', async () => {
    const directory = join(root, 'scripted_adopt');
    const traces = await readTraces(directory);
    const benchCase = caseSet.cases.find((item) => item.family === 'diamond' && item.depth === 3)!;
    const step = new RecomputeSession(benchCase, 'scripted/adopt').steps[1]!;
    const removed = traces.find((trace) => trace.item === step.key)!;
    const names = await readdir(join(directory, 'traces'));
    for (const name of names) {
      const trace = JSON.parse(await readFile(join(directory, 'traces', name), 'utf8')) as Trace;
      if (trace.item === removed.item) await unlink(join(directory, 'traces', name));
    }
    const { scores } = await scoreDirectory(directory);
    const finalItem = `${benchCase.id}/recompute-descendants`;
    expect(scores.regeneration.missing).toEqual([step.key]);
    expect(scores.regeneration.n).toBe(regenerations - 1);
    expect(scores.missing).toEqual([finalItem]);
    expect(scores.unscorable).toEqual([{ item: finalItem, missingRegenerations: [step.key] }]);
    expect(score({ ...adopt, scores }, 'recompute-descendants')).toMatchObject({ missing: 1, n: 26 });
    const resumed = await runBenchmark({ model: 'scripted/adopt', caseSet, runsDirectory: root });
    // Only the deleted step is asked again; the steps around it and the final request are reused.
    expect(resumed.report).toMatchObject({ skipped: 188, written: 1, failed: [] });
    expect(resumed.scores.missing).toEqual([]);
    expect(resumed.scores.unscorable).toEqual([]);
    expect(resumed.scores.regeneration.missing).toEqual([]);
  });

  it('never overwrites a trace, and stores it read-only', async () => {
    const store = new TraceStore(join(heed.directory, 'traces'));
    const [trace] = (await store.readAll()).traces;
    await expect(store.write(trace!)).rejects.toMatchObject({ code: 'trace-exists' });
    const digest = (await readdir(join(heed.directory, 'traces')))[0]!;
    expect((await stat(join(heed.directory, 'traces', digest))).mode & 0o222).toBe(0);
  });
});

describe('recompute-descendants asks the model under test', () => {
  it('sends each regeneration in Replay order, traces every one, and asks the target last', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'context-repair-replay-'));
    const benchCase = caseSet.cases.find((item) => item.family === 'fan-out' && item.depth === 3)!;
    const asked: string[] = [];
    const scripted = await openBenchModel('scripted/adopt');
    const recording: BenchModel = {
      ...scripted,
      ask: (request, settings) => {
        asked.push(lastUserText({ request }));
        return scripted.ask(request, settings);
      },
    };
    try {
      const single = { ...caseSet, cases: [benchCase] };
      const store = new TraceStore(directory);
      const report = await capture(single, recording, store, { concurrency: 1 });
      const steps = new RecomputeSession(benchCase, 'scripted/adopt').steps;
      expect(steps.length).toBe(benchCase.contaminated.length);
      const recompute = asked.slice(4, 4 + steps.length + 1);
      const question = (name: string) => `What is ${name}?`;
      steps.forEach((step, index) => expect(recompute[index]).toContain(question(step.name)));
      expect(recompute.at(-1)).toContain(`${question(benchCase.target)}`);
      expect(report.written).toBe(7 + steps.length);
      const { traces } = await store.readAll();
      const regenerationTraces = traces
        .filter((trace) => trace.step === 'regenerate')
        .sort((left, right) => left.replayIndex! - right.replayIndex!);
      expect(regenerationTraces.map((trace) => trace.item)).toEqual(steps.map((step) => step.key));
      expect(regenerationTraces.map((trace) => lastUserText(trace))).toEqual(recompute.slice(0, -1));
      // A second run has nothing left to ask.
      asked.length = 0;
      expect(await capture(single, recording, store, { concurrency: 1 })).toMatchObject({ skipped: 7, written: 0 });
      expect(asked).toEqual([]);
    } finally {
      await scripted.close();
      await rm(directory, { recursive: true, force: true });
    }
  }, 60_000);
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
  it('a bare-number reply to "What is X?" states X, so a regenerated answer is adopted as the model wrote it', () => {
    const replayed = [
      { role: 'user', text: '[Note]\nDefinitions (exact):\nA = 4\nB = A + 1\nC = B * 2' },
      { role: 'user', text: 'What is B? B = A + 1.' },
      { role: 'assistant', text: '9' },
      { role: 'user', text: 'What is C? C = B * 2. Reply with the number only.' },
    ];
    expect(scriptedAnswer('adopt', replayed)).toBe('18');
    expect(scriptedAnswer('adopt', [replayed[0]!, replayed[1]!, { role: 'assistant', text: '5' }, replayed[3]!])).toBe(
      '10',
    );
  });

  it('adopt takes the value stated last; heed-stale skips values under the stale mark', () => {
    expect(scriptedAnswer('adopt', messages)).toBe('18');
    expect(scriptedAnswer('heed-stale', messages)).toBe('10');
  });
});
