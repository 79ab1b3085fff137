/**
 * Core performance figures (see README.md, "## Core"). Prints one `name: value unit` per line.
 * Run with `npm run bench:core` (`WEFT_BENCH_QUICK=1` for a seconds-long run at a small scale).
 * Compile, staleness and `sha256_canonical_*` go through the JavaScript hash port the renderer uses;
 * `*_node_*` figures through the OpenSSL port of the Node surfaces.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { CanvasDocument } from '../../protocol/index.ts';
import {
  applyChange,
  compile,
  computeStaleFull,
  graphFromDocument,
  hashCanonical,
  StaleTracker,
  type Graph,
} from '../../src/core/index.ts';
import { jsHashPort, type HashPort, canonicalJson } from '../../src/core/index.ts';
import { nodeHashPort } from '../../runtime/hash/index.ts';
import {
  deepChainCanvas,
  prose,
  seededRandom,
  threadsCanvas,
  wideUpstreamCanvas,
  wideUpstreamInCanvas,
} from './core-canvas.ts';
import { announceQuickMode, QUICK, scale } from './quick-mode.ts';
import { benchAnchors } from './anchors-bench.ts';
import { benchPendingReplay } from './pending-replay-bench.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Wall-clock milliseconds of one run; CPU milliseconds of the same run go to `cpuSamples`. */
let cpuSamples: number[] = [];
function time(run: () => void): number {
  const cpu = process.cpuUsage();
  const start = performance.now();
  run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  cpuSamples.push((used.user + used.system) / 1000);
  return wall;
}

/** The median CPU time of the runs since the last call (less sensitive to a busy machine). */
function cpuMedian(): number {
  const figure = median(cpuSamples);
  cpuSamples = [];
  return figure;
}

function print(name: string, value: number, unit: string, digits = 2): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

/** Answers every node against its current upstream, so the canvas starts with nothing stale. */
function settle(document: CanvasDocument): Graph {
  const fingerprints = computeStaleFull(graphFromDocument(document)).fingerprints;
  for (const node of document.nodes) {
    if (node.kind !== 'question') continue;
    for (const version of node.versions)
      version.upstreamFingerprint = fingerprints.get(node.id) ?? version.upstreamFingerprint;
  }
  return graphFromDocument(document);
}

/**
 * Sweeps 32 MB so each timed compile starts with cold CPU caches, as a compile after an edit
 * in the app does; without it the 1,000-node graph stays cache-resident across repeated runs
 * and the 4,000-node one cannot, which measures the cache size rather than the algorithm.
 */
const sweep = new Uint8Array(32 * 1024 * 1024);
let sweepSum = 0;
function evictCaches(): void {
  for (let offset = 0; offset < sweep.length; offset += 64) {
    sweep[offset] = (sweep[offset]! + 1) & 0xff;
    sweepSum += sweep[offset]!;
  }
}

function benchCompile(upstream: number, runs: number, label: number): { wall: number; cpu: number } {
  const { document, targetId } = wideUpstreamCanvas(upstream);
  const graph = graphFromDocument(document);
  const cold = time(() => compile(graph, targetId));
  cpuMedian();
  const samples: number[] = [];
  let bytes = 0;
  const warm: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    evictCaches();
    samples.push(
      time(() => {
        bytes = compile(graph, targetId).messages.length;
      }),
    );
  }
  const cpu = cpuMedian();
  for (let run = 0; run < runs; run += 1) warm.push(time(() => compile(graph, targetId)));
  cpuMedian();
  const figure = median(samples);
  print(`compile_${label}_upstream_ms`, figure, 'ms');
  print(`compile_${label}_upstream_cpu_ms`, cpu, 'ms');
  print(`compile_${label}_upstream_warm_ms`, median(warm), 'ms');
  print(`compile_${label}_upstream_cold_ms`, cold, 'ms');
  if (bytes === 0) throw new Error('compile produced nothing');
  return { wall: figure, cpu };
}

/**
 * A person opening a canvas and asking: each load parses the stored JSON again (new node objects, so no text
 * is cached and no wire index is built), then the first compile of the node with `upstream` upstream is timed.
 * Median of the loads (the first also pays the JIT warm-up); the labels keep the full run's scale.
 */
function benchCompileCold(upstream: number, total: number, loads: number, label: string): void {
  const { document, targetId } = wideUpstreamInCanvas(upstream, total);
  const stored = JSON.stringify(document);
  cpuSamples = [];
  const samples: number[] = [];
  for (let load = 0; load < loads; load += 1) {
    const graph = graphFromDocument(JSON.parse(stored) as CanvasDocument);
    evictCaches();
    samples.push(
      time(() => {
        if (compile(graph, targetId).messages.length === 0) throw new Error('compile produced nothing');
      }),
    );
  }
  print(`compile_${label}_cold_ms`, median(samples), 'ms');
  print(`compile_${label}_cold_cpu_ms`, cpuMedian(), 'ms');
}

/** Figure names keep the full run's scale (`label`) in quick mode too, so one list of names covers both. */
function benchStaleFull(total: number, runs: number, label: string): number {
  const graph = settle(threadsCanvas(total).document);
  computeStaleFull(graph); // warm the per-node digest cache once, as a running app has
  cpuSamples = [];
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) samples.push(time(() => computeStaleFull(graph)));
  const figure = median(samples);
  print(`stale_full_${label}_ms`, figure, 'ms');
  print(`stale_full_${label}_cpu_ms`, cpuMedian(), 'ms');
  return figure;
}

function benchIncremental(total: number, runs: number, label: string): void {
  const { document, editId } = threadsCanvas(total);
  let graph = settle(document);
  const tracker = new StaleTracker(graph);
  if (tracker.stale.size !== 0) throw new Error('settled canvas should have nothing stale');
  const incremental: number[] = [];
  const incrementalCpu: number[] = [];
  const applying: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    let touched: string[] = [];
    applying.push(
      time(() => {
        const result = applyChange(
          graph,
          { type: 'edit-node', nodeId: editId, patch: { question: `edited ${run}?` } },
          { now: 10_000_000 + run, newId: () => `e${run}` },
        );
        if (!result.ok) throw result.error;
        graph = result.value.graph;
        touched = result.value.touched;
      }),
    );
    cpuSamples = [];
    incremental.push(time(() => tracker.update(graph, touched)));
    incrementalCpu.push(cpuMedian());
    const staleCount: number = tracker.stale.size;
    // The 50 descendants read the edited question; the edited node's own answer is stale too (C6).
    if (staleCount !== 51)
      throw new Error(`expected 51 stale answers (50 descendants + the edited node), found ${staleCount}`);
  }
  const full = median(Array.from({ length: scale(5, 1) }, () => time(() => computeStaleFull(graph))));
  const figure = median(incremental);
  print(`stale_incremental_${label}_ms`, figure, 'ms', 3);
  print(`stale_incremental_${label}_cpu_ms`, median(incrementalCpu), 'ms', 3);
  print(`apply_change_${label}_ms`, median(applying), 'ms', 3);
  print(`stale_full_${label}_ms`, full, 'ms');
  print('stale_full_over_incremental_ratio', full / figure, 'x', 1);
}

/** MB/s of `run` over `megabytes`: wall-clock median, then the CPU median of the same runs. */
function throughput(name: string, megabytes: number, runs: number, run: () => void): void {
  run();
  cpuSamples = [];
  const samples = Array.from({ length: runs }, () => time(run));
  print(`${name}_MBps`, megabytes / (median(samples) / 1000), 'MB/s', 1);
  print(`${name}_cpu_MBps`, megabytes / (cpuMedian() / 1000), 'MB/s', 1);
}

function benchHashing(records: number, runs: number): void {
  const random = seededRandom(3);
  const value = Array.from({ length: records }, (_, index) => ({
    id: `n${index}`,
    at: index,
    text: prose(random, 1024, 2048),
    tags: { kind: 'question', depth: index % 7 },
  }));
  const text = canonicalJson(value);
  const bytes = new TextEncoder().encode(text);
  const megabytes = bytes.length / 1e6;
  const ports: [string, HashPort][] = [
    ['js', jsHashPort],
    ['node', nodeHashPort],
  ];
  // Raw bytes through each port, then canonical JSON + hash (the renderer's figure keeps its old name).
  for (const [name, port] of ports) throughput(`sha256_${name}`, megabytes, runs, () => port.sha256Hex(bytes));
  throughput('sha256_canonical', megabytes, runs, () => hashCanonical(value));
  throughput('hash_canonical_node', megabytes, runs, () => hashCanonical(value, nodeHashPort));
  // Real answers have line breaks (here one after every sentence): every string then needs escaping, a slower path.
  const markdown = value.map((record) => ({ ...record, text: record.text.replaceAll('. ', '.\n') }));
  const markdownMegabytes = new TextEncoder().encode(canonicalJson(markdown)).length / 1e6;
  throughput('hash_canonical_node_markdown', markdownMegabytes, runs, () => hashCanonical(markdown, nodeHashPort));
}

announceQuickMode();
print('load_average_1m', loadavg()[0]!, 'processes');
print('cores', availableParallelism(), 'cores', 0);
const thousand = benchCompile(scale(1000, 100), scale(60, 3), 1000);
const fourThousand = benchCompile(scale(4000, 400), scale(30, 3), 4000);
print('compile_4000_over_1000_ratio', fourThousand.wall / thousand.wall, 'x');
print('compile_4000_over_1000_cpu_ratio', fourThousand.cpu / thousand.cpu, 'x');
benchCompileCold(scale(1000, 100), scale(5000, 500), scale(15, 3), '1000_in_5000');
benchStaleFull(scale(5000, 500), scale(5, 2), '5k');
benchIncremental(scale(20000, 1000), scale(20, 3), '20k');
benchHashing(scale(4000, 200), scale(9, 3));
// Informational, no target: every fingerprint reads all of its ancestors, so one deep chain is
// quadratic (n(n-1)/2 part digests hashed for a full recompute).
{
  const graph = settle(deepChainCanvas(scale(1000, 100)));
  computeStaleFull(graph);
  print(
    'stale_full_chain_1000_deep_ms',
    median(Array.from({ length: scale(3, 1) }, () => time(() => computeStaleFull(graph)))),
    'ms',
  );
}
if (sweepSum < 0) console.log('unreachable');
await benchAnchors(QUICK, print);
benchPendingReplay(QUICK, print);
