import { buildRequest, compile, replayOrder, type TestCanvas } from '../../src/core/index.ts';
import { evaluate } from './arithmetic.ts';
import { answerText, buildCaseCanvas } from './case-canvas.ts';
import type { ConditionContext } from './conditions.ts';
import type { BenchCase } from './generate-cases.ts';

/** One request of the Replay: a contaminated descendant re-asked on its freshly compiled context. */
export interface RegenerationStep {
  /** Position in core's Replay order (0 = first asked). */
  index: number;
  name: string;
  nodeId: string;
  /** The item its trace is stored under: `caseId/recompute-descendants/regenerate/<name>`. */
  key: string;
  /** The variable's correct value, and the value the pollution implies for it. */
  gold: number;
  wrong: number;
}

export const regenerationKey = (caseId: string, name: string) => `${caseId}/recompute-descendants/regenerate/${name}`;

/**
 * The `recompute-descendants` condition as the app would run it: the polluted case, the source's answer
 * corrected (a new version holding its true value — the one value the condition supplies), then a Replay of the
 * shown stale set planned once in core's `replayOrder`. Each descendant is asked by the model under test on the
 * context compiled at that moment (upstream: the corrected source and the answers already regenerated), and its
 * reply becomes the node's new answer, verbatim. Only then is the target compiled.
 */
export class RecomputeSession {
  readonly steps: readonly RegenerationStep[];
  readonly operations: string[];
  private readonly canvas: TestCanvas;
  private readonly targetId: string;
  /** What each answer in a later context must read: the correction and every regenerated reply. */
  private readonly expected = new Map<string, string>();
  private done = 0;

  constructor(
    readonly benchCase: BenchCase,
    private readonly model: string,
  ) {
    const { canvas, nodeOf, targetId } = buildCaseCanvas(benchCase, true);
    this.canvas = canvas;
    this.targetId = targetId;
    const gold = evaluate(benchCase.variables);
    const wrong = evaluate(benchCase.variables, { name: benchCase.source, value: benchCase.pollutedValue });
    const sourceId = nodeOf.get(benchCase.source)!;
    const correction = answerText(benchCase.source, gold.get(benchCase.source)!);
    canvas.answer(sourceId, correction, { model: 'context-repair/correction' });
    this.expected.set(sourceId, correction);
    this.operations = [`build polluted ${benchCase.source}`, `correct ${benchCase.source}`];
    const nameOf = new Map([...nodeOf].map(([name, id]) => [id, name]));
    this.steps = replayOrder(canvas.graph, canvas.shownStale()).map((nodeId, index) => {
      const name = nameOf.get(nodeId)!;
      return {
        index,
        name,
        nodeId,
        key: regenerationKey(benchCase.id, name),
        gold: gold.get(name)!,
        wrong: wrong.get(name)!,
      };
    });
  }

  /** The answers (node id → text) the next context must show exactly: for the reference compiler's check. */
  expectedAnswers(): ReadonlyMap<string, string> {
    return this.expected;
  }

  private contextFor(nodeId: string): ConditionContext {
    const stale = this.canvas.shownStale();
    const compiled = compile(this.canvas.graph, nodeId, { stale });
    const built = buildRequest(compiled, { model: this.model });
    return { graph: this.canvas.graph, targetId: nodeId, stale, compiled, built, operations: [...this.operations] };
  }

  /** The request for the next step in Replay order (steps are taken strictly in order). */
  stepContext(step: RegenerationStep): ConditionContext {
    if (step.index !== this.done) throw new Error(`step ${step.index} asked before step ${this.done}`);
    return this.contextFor(step.nodeId);
  }

  /** Records the model's reply to `step` as the node's new answer, verbatim. */
  regenerated(step: RegenerationStep, reply: string): void {
    if (step.index !== this.done) throw new Error(`step ${step.index} answered before step ${this.done}`);
    this.canvas.answer(step.nodeId, reply, { model: this.model });
    this.expected.set(step.nodeId, reply);
    this.operations.push(`regenerate ${step.name}`);
    this.done += 1;
  }

  /** The target's request on the regenerated context; only after every step. */
  finalContext(): ConditionContext {
    if (this.done !== this.steps.length)
      throw new Error(`the target is asked after ${this.done} of ${this.steps.length} regenerations`);
    return this.contextFor(this.targetId);
  }
}
