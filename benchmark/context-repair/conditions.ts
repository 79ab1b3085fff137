import {
  buildRequest,
  compile,
  STALE_MARK,
  type BuiltRequest,
  type CompiledContext,
  type Graph,
} from '../../src/core/index.ts';
import { buildCaseCanvas } from './case-canvas.ts';
import type { BenchCase } from './generate-cases.ts';
import { referenceOrder } from './reference-compiler.ts';

/** The seven conditions, each a sequence of graph operations on the same case (README, "Conditions"). */
export const CONDITIONS = [
  'clean',
  'polluted',
  'source-prune',
  'subgraph-prune',
  'recompute-descendants',
  'source-prune-stale',
  'stale-instruction',
] as const;
export type Condition = (typeof CONDITIONS)[number];

/** The note the last condition wires into the target (solid), so it reaches the model as part of the chain. */
export const DISTRUST_INSTRUCTION =
  'Instruction: an answer marked stale was written before something upstream of it changed and may be wrong. ' +
  'Do not rely on a stale answer; work its value out again from the definitions.';

export interface ConditionContext {
  graph: Graph;
  targetId: string;
  /** The stale set the request was compiled with. */
  stale: ReadonlySet<string>;
  compiled: CompiledContext;
  built: BuiltRequest;
  /** The graph operations applied after the case was built, in order (recorded in each trace). */
  operations: string[];
}

const NO_STALE: ReadonlySet<string> = new Set();

/**
 * Builds the case for `condition` through core's typed changes and compiles the target with core's own
 * `compile` and `buildRequest` (the bytes the app sends). Conditions without the mark compile with an empty
 * stale set; the two stale conditions use the product's shown stale set exactly as the app would.
 */
export function conditionContext(benchCase: BenchCase, condition: Condition, model: string): ConditionContext {
  // Its target request exists only after the model under test has regenerated the descendants.
  if (condition === 'recompute-descendants')
    throw new Error('recompute-descendants is asked through a RecomputeSession (recompute-session.ts)');
  const { canvas, nodeOf, targetId } = buildCaseCanvas(benchCase, condition !== 'clean');
  const operations: string[] = [condition === 'clean' ? 'build clean' : `build polluted ${benchCase.source}`];
  const source = nodeOf.get(benchCase.source)!;
  let stale: ReadonlySet<string> = NO_STALE;
  if (condition !== 'clean' && condition !== 'polluted') {
    canvas.archive(source);
    operations.push(`archive ${benchCase.source}`);
  }
  if (condition === 'subgraph-prune') {
    for (const name of benchCase.contaminated) {
      canvas.archive(nodeOf.get(name)!);
      operations.push(`archive ${name}`);
    }
  }
  if (condition === 'source-prune-stale' || condition === 'stale-instruction') stale = canvas.shownStale();
  if (condition === 'stale-instruction') {
    const note = canvas.addNote(DISTRUST_INSTRUCTION);
    canvas.wire(note, targetId);
    operations.push('wire instruction note into target');
  }
  const compiled = compile(canvas.graph, targetId, { stale });
  const built = buildRequest(compiled, { model });
  return { graph: canvas.graph, targetId, stale, compiled, built, operations };
}

/**
 * Checks a compiled context against the reference compiler: the same `nodeId:part` sequence, and the stale
 * mark on exactly the answers (and reference blocks) of nodes in the stale set. `answers` (node id → text), when
 * given, are what those nodes' answers must read — the correction and the regenerated replies of a Replay.
 * Returns the problems found.
 */
export function equivalenceProblems(
  context: ConditionContext,
  answers: ReadonlyMap<string, string> = new Map(),
): string[] {
  const problems: string[] = [];
  const actual = context.compiled.sources.map((source) => `${source.nodeId}:${source.part}`);
  const expected = referenceOrder(context.graph, context.targetId);
  if (actual.join(' ') !== expected.join(' '))
    problems.push(`order: core ${actual.join(' ')} ≠ reference ${expected.join(' ')}`);
  context.compiled.sources.forEach((source, index) => {
    const text = context.compiled.messages[index]!.content.map((part) => (part.type === 'text' ? part.text : '')).join(
      '',
    );
    if (source.part === 'answer') {
      const marked = text.startsWith(`${STALE_MARK}\n`);
      if (marked !== context.stale.has(source.nodeId))
        problems.push(`${source.nodeId}: stale mark ${marked ? 'present' : 'missing'}`);
      const expected = answers.get(source.nodeId);
      if (expected !== undefined && text.replace(`${STALE_MARK}\n`, '') !== expected)
        problems.push(`${source.nodeId}: answer is not the one recorded`);
    }
    if (source.part === 'reference' && answers.has(source.nodeId) && !text.includes(answers.get(source.nodeId)!))
      problems.push(`${source.nodeId}: reference block does not quote the recorded answer`);
    if (source.part === 'reference' && text.includes(STALE_MARK) && context.stale.size === 0)
      problems.push(`${source.nodeId}: reference block marked with an empty stale set`);
  });
  return problems;
}
