import { describe, expect, it } from 'vitest';
import type { QuestionNode, Version } from '../../protocol/index.ts';
import { compile } from './compile.ts';
import { rerunPlan } from './rerun-plan.ts';
import { runComparison } from './run-comparison.ts';
import { runNames, runStepView, runVersion, runView } from './run-view.ts';
import { TestCanvas } from './test-canvas.ts';
import { upstreamSnapshot } from './fingerprint.ts';

const RUN = { name: 'other', model: 'test/other' };

/** Writes the run's answer to `nodeId` as the store's runner does: compiled from the run's view, never selected. */
function runAnswer(canvas: TestCanvas, nodeId: string, text: string): void {
  const view = runStepView(canvas.graph, nodeId, RUN);
  canvas.apply({
    type: 'add-version',
    nodeId,
    select: false,
    version: {
      text,
      question: (view.nodes.get(nodeId) as QuestionNode).question,
      model: RUN.model,
      requestHash: null,
      ...upstreamSnapshot(view, nodeId),
      origin: 'generated',
      status: 'complete',
      branchOf: null,
      run: RUN,
    },
  });
}

/** top → left, right → join (a diamond), created so that document order is not dependency order. */
function diamond() {
  const canvas = new TestCanvas();
  const join = canvas.addQuestion('join');
  const right = canvas.addQuestion('right');
  const left = canvas.addQuestion('left');
  const top = canvas.addQuestion('top');
  canvas.wire(top, left);
  canvas.wire(top, right);
  canvas.wire(left, join);
  canvas.wire(right, join);
  for (const [id, text] of [
    [top, 'The answer is 2.'],
    [left, 'The answer is 3.'],
    [right, 'The answer is 4.'],
    [join, 'The answer is 7.'],
  ] as const)
    canvas.answer(id, text);
  return { canvas, top, left, right, join };
}

describe('rerunPlan (issue 31): Replay’s order with a model override and a run name', () => {
  it('plans every live question of the selection once, upstream first, priced at the override model', () => {
    const { canvas, top, left, right, join } = diamond();
    const note = canvas.addNote('context');
    const archived = canvas.addQuestion('archived');
    canvas.archive(archived);
    const agent = canvas.addQuestion('agent step');
    canvas.edit(agent, { model: 'agent:pi' });
    const plan = rerunPlan(canvas.graph, new Set([join, right, left, top, note, archived, agent]), {
      model: RUN.model,
      runName: '  other  ',
      pricePerMTokIn: 2,
    });
    expect(plan.runName).toBe('other');
    expect(plan.steps[0]!.nodeId).toBe(top);
    expect(plan.steps.at(-1)!.nodeId).toBe(join);
    expect(new Set(plan.steps.map((step) => step.nodeId))).toEqual(new Set([top, left, right, join]));
    expect(plan.count).toBe(4);
    expect(plan.steps.map((step) => step.inputTokens)).toEqual(
      plan.steps.map((step) => compile(canvas.graph, step.nodeId).tokens.total),
    );
    expect(plan.price).toBeCloseTo((plan.inputTokens * 2) / 1_000_000, 12);
    expect(plan.byHand.map((entry) => entry.nodeId)).toEqual([agent]);
    expect(plan.refusal).toBeNull();
    expect(rerunPlan(canvas.graph, new Set([top]), { model: RUN.model, runName: 'x' }).price).toBeNull();
  });

  it('refuses in words: an empty name, a name used under another model, nothing (left) to run', () => {
    const { canvas, top } = diamond();
    const plan = (runName: string, selection = new Set([top]), model = RUN.model) =>
      rerunPlan(canvas.graph, selection, { model, runName }).refusal;
    expect(plan('   ')).toMatch(/Name the run/);
    expect(plan('other', new Set([canvas.addNote('n')]))).toMatch(/Nothing to re-run/);
    runAnswer(canvas, top, 'The answer is 2.');
    expect(runNames(canvas.graph)).toEqual(['other']);
    expect(plan('other', new Set([top]), 'test/third')).toMatch(/already on this canvas under test\/other/);
    expect(plan('other')).toMatch(/nothing left to run/);
  });

  it('continues a stopped run of the same name and model: only the questions it has not answered, from its own', () => {
    const { canvas, top, left, right, join } = diamond();
    runAnswer(canvas, top, 'The answer is 20.');
    runAnswer(canvas, left, 'The answer is 30.');
    const all = new Set([top, left, right, join]);
    const plan = rerunPlan(canvas.graph, all, { model: RUN.model, runName: 'other', estimateTokens: (t) => t.length });
    expect(plan.refusal).toBeNull();
    expect(plan.resumed).toBe(2);
    expect(plan.steps.map((step) => step.nodeId)).toEqual([right, join]);
    expect(plan.count).toBe(2);
    // The figures are the remaining steps' as they will compile: join reads the run's left, not the person's.
    const joinTokens = compile(runView(canvas.graph, 'other'), join, { estimateTokens: (t) => t.length }).tokens.total;
    expect(plan.steps[1]!.inputTokens).toBe(joinTokens);
    expect(joinTokens).not.toBe(compile(canvas.graph, join, { estimateTokens: (t) => t.length }).tokens.total);
    expect(plan.inputTokens).toBe(plan.steps[0]!.inputTokens + joinTokens);
    // A fresh name plans everything.
    expect(rerunPlan(canvas.graph, all, { model: RUN.model, runName: 'fresh' }).count).toBe(4);
  });
});

describe('runView and runComparison (issue 31)', () => {
  it('a run compiles from its own upstream answers while the canvas keeps the person’s selection and nothing goes stale', () => {
    const { canvas, top, left, right, join } = diamond();
    const selected = [...canvas.graph.nodes.values()].map((node) => (node as QuestionNode).currentVersionId);
    runAnswer(canvas, top, 'The answer is 5.');
    expect(
      compile(runView(canvas.graph, 'other'), left)
        .messages.map((m) => JSON.stringify(m))
        .join(),
    ).toContain('The answer is 5.');
    expect(
      compile(canvas.graph, left)
        .messages.map((m) => JSON.stringify(m))
        .join(),
    ).toContain('The answer is 2.');
    expect(runStepView(canvas.graph, left, RUN).nodes.get(left)).toMatchObject({ model: RUN.model });
    runAnswer(canvas, left, 'The answer is 6.');
    runAnswer(canvas, right, 'The answer is 4.');
    runAnswer(canvas, join, 'The answer is 10.');
    expect([...canvas.graph.nodes.values()].map((node) => (node as QuestionNode).currentVersionId)).toEqual(selected);
    expect(canvas.staleIds()).toEqual([]);
    expect(runVersion(canvas.graph.nodes.get(join), 'other')?.text).toBe('The answer is 10.');

    const numberOf = (text: string) => Number(/answer is (\d+)/.exec(text)?.[1] ?? NaN) || null;
    const comparison = runComparison(canvas.graph, 'other', { numberOf });
    expect(comparison.model).toBe(RUN.model);
    expect(comparison.rows[0]!.nodeId).toBe(top);
    expect(comparison.rows.at(-1)!.nodeId).toBe(join);
    expect(comparison.firstDivergence).toBe(top);
    const byNode = new Map(comparison.rows.map((row) => [row.nodeId, row]));
    expect(byNode.get(right)).toMatchObject({ numberChanged: false, diverged: false });
    expect(byNode.get(join)).toMatchObject({ original: { number: 7 }, rerun: { number: 10 }, diverged: true });
    expect(comparison.diverged).toBe(3);
    // Without a number or checks to compare, nothing counts as diverged; a run that is not there has no rows.
    expect(runComparison(canvas.graph, 'other').firstDivergence).toBeNull();
    expect(runComparison(canvas.graph, 'missing')).toMatchObject({ model: null, rows: [], firstDivergence: null });
  });

  it('compares checks by verdict, whatever order they are reported in; a number on one side only is a change', () => {
    const { canvas, top, left } = diamond();
    runAnswer(canvas, top, 'The answer is 2.');
    runAnswer(canvas, left, 'No number here.');
    const checksOf = (nodeId: string, version: Version) =>
      nodeId === top
        ? version.text.includes('2') && !version.run
          ? [
              { checkId: 'b', passed: true },
              { checkId: 'a', passed: false },
            ]
          : [
              { checkId: 'a', passed: false },
              { checkId: 'b', passed: true },
            ]
        : null;
    const numberOf = (text: string) => Number(/answer is (\d+)/.exec(text)?.[1] ?? NaN) || null;
    const comparison = runComparison(canvas.graph, 'other', { checksOf, numberOf });
    expect(comparison.rows.map((row) => [row.nodeId, row.checksChanged, row.numberChanged])).toEqual([
      [top, false, false],
      [left, null, true],
    ]);
    expect(comparison.firstDivergence).toBe(left);
  });

  it('by default reads the checks the canvas recorded, and the number only where the question sets a number check', () => {
    const { canvas, top, left } = diamond();
    canvas.edit(top, { checks: [{ id: 'says-two', kind: 'contains', text: 'is 2' }] });
    canvas.edit(left, { checks: [{ id: 'three', kind: 'number', value: 3, tolerance: 0 }] });
    runAnswer(canvas, top, 'The answer is 5.');
    runAnswer(canvas, left, 'The answer is 3.');
    const comparison = runComparison(canvas.graph, 'other');
    const byNode = new Map(comparison.rows.map((row) => [row.nodeId, row]));
    expect(byNode.get(top)).toMatchObject({ checksChanged: true, numberChanged: null, diverged: true });
    expect(byNode.get(left)).toMatchObject({ original: { number: 3 }, rerun: { number: 3 }, numberChanged: false });
    expect(comparison.firstDivergence).toBe(top);
  });
});
