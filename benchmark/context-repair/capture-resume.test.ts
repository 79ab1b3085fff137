import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../src/core/index.ts';
import { openBenchModel, type BenchModel } from './bench-model.ts';
import { capture } from './capture.ts';
import { generateCases, type CaseSet } from './generate-cases.ts';
import { TraceStore, type Trace } from './trace-store.ts';

// One case with a Replay of several steps, captured once; each test resumes a copy of its traces.
const full = generateCases({ perCell: 1 });
const benchCase = full.cases.find((item) => item.family === 'chain' && item.depth === 3)!;
const single: CaseSet = { ...full, cases: [benchCase] };
let root: string;
let model: BenchModel;
let traces: Trace[];
const asked: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'context-repair-resume-'));
  const scripted = await openBenchModel('scripted/adopt');
  model = {
    ...scripted,
    ask: (request, settings) => {
      asked.push(request.model);
      return scripted.ask(request, settings);
    },
  };
  const store = new TraceStore(join(root, 'captured'));
  await capture(single, model, store);
  traces = (await store.readAll()).traces;
}, 60_000);
afterAll(async () => {
  await model.close();
  await rm(root, { recursive: true, force: true });
});

/** The captured traces in a new folder, the one for `item` as another compiler would have built its request. */
async function copyWithOlderCompiler(name: string, item: string): Promise<TraceStore> {
  const store = new TraceStore(join(root, name));
  for (const trace of traces) {
    if (trace.item !== item) {
      await store.write(trace);
      continue;
    }
    const request = structuredClone(trace.request);
    const first = request.messages[0]!.content[0]!;
    if (first.type === 'text') first.text = `[Context]\n${first.text}`;
    await store.write({ ...trace, request, requestHash: sha256Hex(canonicalJson(request)) });
  }
  return store;
}

describe('resuming a capture', () => {
  it('refuses a final trace whose request today’s compiler no longer builds, naming the item, and sends nothing', async () => {
    const item = `${benchCase.id}/polluted`;
    const store = await copyWithOlderCompiler('old-polluted', item);
    asked.length = 0;
    await expect(capture(single, model, store)).rejects.toMatchObject({
      code: 'compiler-changed',
      message: expect.stringMatching(new RegExp(`^${item} .*start a new run folder .*or bump CAPTURE_VERSION`)),
    });
    expect(asked).toEqual([]);
    expect(await readdir(store.directory)).toHaveLength(traces.length);
  });

  it('refuses a recompute final built by another compiler on the same regenerated replies', async () => {
    const item = `${benchCase.id}/recompute-descendants`;
    expect(traces.filter((trace) => trace.step === 'regenerate').length).toBeGreaterThan(1);
    const store = await copyWithOlderCompiler('old-recompute', item);
    asked.length = 0;
    await expect(capture(single, model, store)).rejects.toMatchObject({ code: 'compiler-changed', item });
    expect(asked).toEqual([]);
  });

  it('resumes an unchanged run without asking anything', async () => {
    const store = new TraceStore(join(root, 'unchanged'));
    for (const trace of traces) await store.write(trace);
    asked.length = 0;
    expect(await capture(single, model, store)).toMatchObject({ planned: 7, skipped: 7, written: 0, failed: [] });
    expect(asked).toEqual([]);
  });
});
