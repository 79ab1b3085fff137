/**
 * `pending_replay_1000_ms` for `bench:core` (issue 27): a page's 1,000 pending typed changes (edits of its cards,
 * kept in IndexedDB across a reload) replayed onto a newer 10,000-node record after a 409, as `durable-save.ts`
 * does: the record read into a graph, then core's `rebaseSteps` through the one apply path.
 */
import type { CanvasDocument } from '../../protocol/index.ts';
import {
  applyChange,
  graphFromDocument,
  rebaseSteps,
  verifyChain,
  type Graph,
  type GraphChange,
  type LocalStep,
} from '../../src/core/index.ts';
import { threadsCanvas } from './core-canvas.ts';

type Print = (name: string, value: number, unit: string, digits?: number) => void;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Applies `change` as the store does, keeping the clock and ids it drew with it. */
function typed(graph: Graph, change: GraphChange, now: number, prefix: string): [Graph, LocalStep] {
  const ids: string[] = [];
  let counter = 0;
  const result = applyChange(graph, change, { now, newId: () => (ids.push(`${prefix}-${++counter}`), ids.at(-1)!) });
  if (!result.ok) throw new Error(result.error.message);
  return [result.value.graph, { kind: 'change', change, now, ids }];
}

export function benchPendingReplay(quick: boolean, print: Print): void {
  const total = quick ? 1_000 : 10_000;
  const pending = quick ? 100 : 1_000;
  const { document } = threadsCanvas(total);
  const base = graphFromDocument(document);
  const questions = [...base.nodes.values()].filter((node) => node.kind === 'question');
  // This page's steps, made on the older record: an edit of a different card each.
  let local = base;
  const steps: LocalStep[] = [];
  for (let index = 0; index < pending; index += 1) {
    const nodeId = questions[(index * 7) % questions.length]!.id;
    let step: LocalStep;
    [local, step] = typed(
      local,
      { type: 'edit-node', nodeId, patch: { question: `Edited ${index}?` } },
      1e12 + index,
      `local-${index}`,
    );
    steps.push(step);
  }
  // Another tab's save in between: the newer record the 409 hands back.
  const [theirs] = typed(
    base,
    { type: 'edit-node', nodeId: questions[1]!.id, patch: { question: 'Theirs?' } },
    1e12,
    'remote',
  );
  const newer: CanvasDocument = { ...document, nodes: [...theirs.nodes.values()], events: [...theirs.events] };
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let run = 0; run < (quick ? 1 : 5); run += 1) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const { graph, dropped } = rebaseSteps(graphFromDocument(newer), steps, () => 'unused');
    samples.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
    if (dropped.length !== 0 || graph.events.length !== newer.events.length + pending || verifyChain(graph.events))
      throw new Error('the replay did not keep every step in one chain');
  }
  print('pending_replay_1000_ms', median(samples), 'ms', 1);
  // The same runs in CPU time: on a shared machine the wall figure mostly measures the wait for a core.
  print('pending_replay_1000_cpu_ms', median(cpuSamples), 'ms', 1);
}
