/**
 * Model sets (issue 31; see README.md, "## Compare"). Prints one `name: value unit` per line. A question of a
 * 10-node study asks a model set of 8 models × 4 samples: core compiles it once and builds and hashes every request
 * (`setRequests`), and the set goes to the real server's `/api/generate-set` in one call, as the app sends it (the
 * context once, each dispatch's model, sample and hashes), with its target node; the server (in its own process)
 * re-hashes the context and every request, checks the target, dispatches 8 at a time per provider and writes its
 * commit ledger; a scripted OpenAI-compatible provider on loopback answers at once. `set_dispatch_overhead_ms` is the ask's wall time
 * minus the provider's time (the union of the intervals in which it held at least one request). Run with
 * `npm run bench:compare` (`WEFT_BENCH_QUICK=1`: 2 models × 2 samples, one round). `rerun_plan_5000_ms`: "Re-run
 * under…" planned on a 5,000-question subgraph (`rerun-plan-figure.ts`).
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compile, generateSetBody, graphFromDocument, setRequests } from '../../src/core/index.ts';
import { readSetStreamEvents, startScriptedProvider } from '../../tests/support/index.ts';
import { deepChainCanvas } from './core-canvas.ts';
import { measureCompareView } from './measure-compare-view.ts';
import { announceQuickMode, scale } from './quick-mode.ts';
import { rerunPlanFigure } from './rerun-plan-figure.ts';
import { checksPerSecond } from './checks-rate.ts';

const MODELS = scale(8, 2);
const SAMPLES = scale(4, 2);
const ROUNDS = scale(15, 1);
/** Sets asked first and not counted: a long-running server's code is compiled by then (the first set is printed). */
const WARMUP = scale(10, 0);
/** The question's upstream: a chain of this many answered questions (answers of 1–2 KB). */
const STUDY = 10;

function print(name: string, value: number, unit: string, digits = 1): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Milliseconds in which at least one of the intervals was open. */
function covered(intervals: [number, number][]): number {
  let total = 0;
  let end = -Infinity;
  for (const [from, to] of [...intervals].sort((a, b) => a[0] - b[0])) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

/** A process's user + system CPU so far, from `/proc` (Linux; clock ticks of 10 ms, so summed over the rounds). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The Weft server in its own process, as in real use (`server-bench-child.ts`, shared with `bench:server`). */
async function startServerChild() {
  const file = fileURLToPath(new URL('./server-bench-child.ts', import.meta.url));
  // `WEFT_BENCH_CPU_PROF=<dir>`: the server child writes a V8 CPU profile there when the bench ends.
  const profile = process.env.WEFT_BENCH_CPU_PROF;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', file, 'server'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<{ origin: string; token: string; home: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server child exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as never));
  });
  return {
    pid: child.pid!,
    api: (path: string, init: RequestInit = {}) =>
      fetch(info.origin + path, { ...init, headers: { ...init.headers, authorization: `Bearer ${info.token}` } }),
    async dispose() {
      child.removeAllListeners('exit');
      // SIGINT lets the child exit normally, so a CPU profile it was asked for is written.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
      await rm(info.home, { recursive: true, force: true });
    },
  };
}

announceQuickMode();
const provider = await startScriptedProvider();
const server = await startServerChild();
const names = Array.from({ length: MODELS }, (_, index) => `bench-${index + 1}`);
provider.byModel = Object.fromEntries(names.map((name) => [name, { text: `${name} answers: four.`, chunkSize: 64 }]));
const models = names.map((name) => `bench/${name}`);
try {
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [
        {
          id: 'bench',
          kind: 'openai-compatible',
          baseUrl: `${provider.url}/v1`,
          apiKey: 'sk-bench-0123',
          models: names,
        },
      ],
    }),
  });
  if (response.status !== 200) throw new Error(`settings: ${response.status}`);
  const document = deepChainCanvas(STUDY);
  const graph = graphFromDocument(document);
  const target = document.nodes.at(-1)!.id;

  /** One ask of the set, as the app sends it: one `/api/generate-set` call carrying the context once. */
  async function askSet(setId: string): Promise<void> {
    const compiled = compile(graph, target);
    const { contextHash, dispatches } = setRequests(
      compiled,
      { models, samples: SAMPLES, temperature: 0.2 },
      { images: true },
      { setId },
    );
    const answer = await server.api('/api/generate-set', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        generateSetBody({ contextHash, dispatches }, [], { canvasId: document.canvas.id, nodeId: target }),
      ),
    });
    const accepted = new Set<number>();
    const finished = new Set<number>();
    for await (const { index, event } of readSetStreamEvents(answer)) {
      if (event.type === 'answer-failed') throw new Error(`${index ?? 'the set'}: ${event.code}: ${event.message}`);
      if (index === null) continue;
      if (
        event.type === 'request-accepted' &&
        event.requestHash === dispatches[index]!.requestHash &&
        event.contextHash === contextHash
      )
        accepted.add(index);
      if (event.type === 'answer-finished') finished.add(index);
    }
    if (accepted.size !== dispatches.length || finished.size !== dispatches.length)
      throw new Error('a dispatch was not accepted with its hashes and answered');
  }

  const overheads: number[] = [];
  const walls: number[] = [];
  let first = 0;
  let serverCpu = 0;
  let benchCpu = 0;
  for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
    provider.requests.length = 0;
    const serverBefore = await cpuMs(server.pid);
    const benchBefore = process.cpuUsage();
    const started = performance.now();
    await askSet(`round-${round}`);
    const wall = performance.now() - started;
    const bench = process.cpuUsage(benchBefore);
    if (round >= WARMUP) {
      serverCpu += (await cpuMs(server.pid)) - serverBefore;
      benchCpu += (bench.user + bench.system) / 1000;
    }
    if (provider.requests.length !== MODELS * SAMPLES) throw new Error(`round ${round}: ${provider.requests.length}`);
    const busy = covered(
      provider.requests.map((request) => [request.receivedAt, request.endedAt ?? request.receivedAt]),
    );
    if (round === 0) first = wall - busy;
    if (round >= WARMUP) {
      walls.push(wall);
      overheads.push(wall - busy);
    }
  }
  // The same set against a provider that paces its answers as a fast hosted one does (first byte after 300 ms, then
  // six chunks 20 ms apart): Weft's work then runs while the provider holds other answers, so this figure is what a
  // person waits beyond the provider, not what the set costs the server's thread (that is `set_server_cpu_ms`).
  provider.byModel = Object.fromEntries(
    names.map((name) => [
      name,
      {
        text: `${name} answers, at a hosted model's pace: four.`.padEnd(384, '.'),
        chunkSize: 64,
        firstDelayMs: 300,
        chunkDelayMs: 20,
      },
    ]),
  );
  const paced: number[] = [];
  for (let round = 0; round < scale(3, 1); round += 1) {
    provider.requests.length = 0;
    const started = performance.now();
    await askSet(`paced-${round}`);
    const wall = performance.now() - started;
    if (provider.requests.length !== MODELS * SAMPLES) throw new Error(`paced round ${round}`);
    paced.push(
      wall - covered(provider.requests.map((request) => [request.receivedAt, request.endedAt ?? request.receivedAt])),
    );
  }
  // The pure part alone: one compile and every request of the set built and hashed.
  const pure: number[] = [];
  for (let round = 0; round < scale(50, 3); round += 1) {
    const started = performance.now();
    const compiled = compile(graph, target);
    setRequests(compiled, { models, samples: SAMPLES, temperature: 0.2 }, { images: true }, { setId: 'pure' });
    pure.push(performance.now() - started);
  }
  print('set_requests', MODELS * SAMPLES, 'requests', 0);
  print('set_context_tokens', compile(graph, target).tokens.total, 'tokens', 0);
  print('set_dispatch_wall_ms', median(walls), 'ms');
  print('set_dispatch_overhead_ms', median(overheads), 'ms');
  print('set_dispatch_overhead_paced_ms', median(paced), 'ms');
  print('set_dispatch_overhead_first_ms', first, 'ms');
  print('set_compile_hash_ms', median(pure), 'ms', 2);
  // CPU, not wall: what the set costs the server's one thread, and this process (the app's side and the provider).
  print('set_server_cpu_ms', serverCpu / ROUNDS, 'ms');
  print('set_bench_cpu_ms', benchCpu / ROUNDS, 'ms');
  // "Re-run under…" planned on a 5,000-question subgraph (quick mode: 200); no server, no provider.
  const rerun = rerunPlanFigure(scale(5000, 200), scale(7, 2), scale(2, 1));
  print('rerun_plan_questions', rerun.steps, 'questions', 0);
  print('rerun_plan_5000_ms', rerun.ms, 'ms');
  print('checks_per_s', checksPerSecond(), 'checks/s', 0);
} finally {
  await server.dispose();
  await provider.close();
}
// Part 2: the set's answers (2,000 words each) opened in the Compare view, in the real app in Chromium.
print('compare_view_answers', MODELS * SAMPLES, 'answers', 0);
print('compare_view_open_ms', await measureCompareView(MODELS, SAMPLES), 'ms');
