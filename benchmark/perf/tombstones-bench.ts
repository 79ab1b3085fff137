/**
 * Put-asides (issue 29.2; see README.md, "## Put-asides"). Prints one `name: value unit` per line:
 * - `tombstone_check_us`: core's `isPutAside` per item (normalise, SHA-256 through the OpenSSL port, set lookup)
 *   with 100,000 tombstones in force, over 100,000 items of which one in ten is put aside;
 * - `tombstone_log_replay_ms`: reading a put-aside log of 100,000 lines into the keys in force (a process's first read);
 * - `recall_plan_p50_ms` and `recall_plan_with_tombstones_p50_ms`: recall's plan over the why corpus (`bench:recall`'s
 *   corpus and questions) without and with 100,000 tombstones, each question planned both ways in turn in one
 *   process, and `recall_tombstone_overhead_pct` between them (target ≤ 10 %).
 * `quick`: 10,000 tombstones and a 3 MB corpus (the figures then say nothing about the targets); `WEFT_BENCH_SCALE`
 * sizes the corpus as for `bench:recall`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentKey, isPutAside } from '../../src/core/index.ts';
import { PutAsideStore, putAsidePath, readPutAsides, type PutAsideChange } from '../../runtime/fs/index.ts';
import { nodeHashPort } from '../../runtime/hash/index.ts';
import { generateCorpus } from './why/generate-corpus.ts';
import { runChild } from './why/run-child.ts';
import { recallQuestions } from './recall-questions.ts';

const here = dirname(fileURLToPath(import.meta.url));
const realSessions = join(here, '..', '..', 'tests', 'fixtures', 'real-sessions');

function print(name: string, value: number, unit: string, digits = 2): void {
  console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
}

/** The membership check, per item, with `count` tombstones in force. */
function checkPerItem(count: number): number {
  const tombstones = new Set<string>();
  for (let seed = 0; seed < count; seed++) tombstones.add(contentKey('canvas-turn', `Question ${seed}?`, nodeHashPort));
  // One item in ten is put aside; the rest are other questions of about the same length.
  const items = Array.from({ length: count }, (_, seed) =>
    seed % 10 === 0 ? `Question ${seed}?` : `Another question, number ${seed}, about the cache?`,
  );
  let found = 0;
  for (const item of items.slice(0, 1000)) if (isPutAside(tombstones, 'canvas-turn', item, nodeHashPort)) found += 1;
  const started = performance.now();
  found = 0;
  for (const item of items) if (isPutAside(tombstones, 'canvas-turn', item, nodeHashPort)) found += 1;
  const elapsed = performance.now() - started;
  if (found !== count / 10) throw new Error(`expected ${count / 10} put aside, found ${found}`);
  return (elapsed * 1000) / items.length;
}

/** A log of `count` tombstones written through the store, then replayed cold. */
async function replayMs(workspace: string, count: number): Promise<number> {
  const home = join(workspace, 'log-home');
  mkdirSync(home);
  const store = new PutAsideStore(home);
  for (let start = 0; start < count; start += 10_000) {
    const changes: PutAsideChange[] = [];
    for (let seed = start; seed < Math.min(count, start + 10_000); seed++)
      changes.push({
        op: 'put-aside',
        key: contentKey('canvas-turn', `Question ${seed}?`, nodeHashPort),
        kind: 'canvas-turn',
        reason: 'archived',
        at: seed,
        origin: { canvasId: 'bench', nodeId: `n${seed}` },
      });
    await store.append(changes);
  }
  // A copy under another home: nothing of it is cached in this process yet.
  const cold = join(workspace, 'cold-home');
  mkdirSync(join(cold, 'memory'), { recursive: true });
  copyFileSync(putAsidePath(home), putAsidePath(cold));
  const started = performance.now();
  const keys = readPutAsides(cold);
  const elapsed = performance.now() - started;
  if (keys.size !== count) throw new Error(`replayed ${keys.size} of ${count}`);
  return elapsed;
}

export async function runTombstonesBench(options: { quick: boolean }): Promise<void> {
  const count = options.quick ? 10_000 : 100_000;
  const workspace = mkdtempSync(join(tmpdir(), 'weft-tombstones-bench-'));
  try {
    print('tombstones', count, 'tombstones', 0);
    print('tombstone_check_us', checkPerItem(count), 'us');
    print('tombstone_log_replay_ms', await replayMs(workspace, count), 'ms', 1);
    const corpus = generateCorpus({
      directory: join(workspace, 'corpus'),
      // `WEFT_BENCH_SCALE` as for `bench:recall` (a fraction of the 1 GB corpus).
      targetBytes: 1e9 * Number(process.env.WEFT_BENCH_SCALE ?? (options.quick ? '0.003' : '1')),
      realSessions,
    });
    print('corpus_MB', corpus.bytes / 1e6, 'MB', 1);
    const env = {
      ...process.env,
      WEFT_HOME: join(workspace, 'weft-home'),
      WEFT_SESSION_ROOTS: corpus.roots.join(delimiter),
      HOME: join(workspace, 'home'),
    };
    runChild('index-child.ts', [], env);
    const questions = recallQuestions(corpus.phrases);
    const input = join(workspace, 'questions.json');
    writeFileSync(input, JSON.stringify({ questions, tombstones: count }));
    const planned = runChild('recall-tombstones-child.ts', [input], env);
    print('recall_plan_p50_ms', planned.planP50!, 'ms');
    print('recall_plan_with_tombstones_p50_ms', planned.withTombstonesP50!, 'ms');
    print(
      'recall_tombstone_overhead_pct',
      (100 * (planned.withTombstonesP50! - planned.planP50!)) / planned.planP50!,
      '%',
      1,
    );
    print('recall_put_aside_omitted', planned.putAsideOmitted!, 'omissions', 0);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
