import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoRerunWave, replayWave, waveStepRuns, type StepOutcome, type WaveStep } from './rerun-wave.ts';
import { TestCanvas } from './test-canvas.ts';
import { ancestors, descendants } from './walk.ts';

const ids = (steps: WaveStep[]) => steps.map((step) => step.nodeId);

/** Runs a plan as the store does, each completed step adding a version; returns versions per node. */
function execute(canvas: TestCanvas, start: string | null, steps: WaveStep[], failing = new Set<string>()) {
  const outcomes = new Map<string, StepOutcome>();
  if (start) {
    canvas.answer(start, 'asked');
    outcomes.set(start, 'complete');
  }
  for (const step of steps) {
    if (!waveStepRuns(step, outcomes)) {
      outcomes.set(step.nodeId, 'skipped');
      continue;
    }
    if (failing.has(step.nodeId)) {
      outcomes.set(step.nodeId, 'failed');
      continue;
    }
    canvas.answer(step.nodeId, `rerun in ${step.lane}`);
    outcomes.set(step.nodeId, 'complete');
  }
  return outcomes;
}

function versions(canvas: TestCanvas, nodeIds: string[]): number[] {
  return nodeIds.map((id) => {
    const node = canvas.graph.nodes.get(id);
    return node?.kind === 'question' ? node.versions.length : -1;
  });
}

describe('auto-rerun waves (C4): planned once, each node at most once', () => {
  it('a chain A→B→C→D with B, C, D on auto-rerun runs B, C, D once each, in order', () => {
    const canvas = new TestCanvas();
    const a = canvas.addQuestion('A');
    const [b, c, d] = ['B', 'C', 'D'].map((text) => canvas.addQuestion(text, { autoRerun: 1 }));
    canvas.wire(a, b!);
    canvas.wire(b!, c!);
    canvas.wire(c!, d!);
    const plan = autoRerunWave(canvas.graph, a);
    expect(ids(plan)).toEqual([b, c, d]);
    expect(plan.every((step) => step.lane === 'auto-rerun')).toBe(true);
    expect(plan.map((step) => step.after)).toEqual([[a], [a, b].sort(), [a, b, c].sort()]);
    execute(canvas, a, plan);
    expect(versions(canvas, [a, b!, c!, d!])).toEqual([1, 1, 1, 1]);
    expect(canvas.staleIds()).toEqual([]);
  });

  it('a diamond runs its join once, after both sides', () => {
    const canvas = new TestCanvas();
    const top = canvas.addQuestion('top');
    const left = canvas.addQuestion('left', { autoRerun: 1 });
    const right = canvas.addQuestion('right', { autoRerun: 1 });
    const join = canvas.addQuestion('join', { autoRerun: 1 });
    canvas.wire(top, left);
    canvas.wire(top, right);
    canvas.wire(left, join);
    canvas.wire(right, join, 'quote');
    const plan = autoRerunWave(canvas.graph, top);
    expect(ids(plan)).toEqual([left, right, join]);
    execute(canvas, top, plan);
    expect(versions(canvas, [top, left, right, join])).toEqual([1, 1, 1, 1]);
  });

  it('a fan-out runs every flagged branch once and leaves unflagged ones (and what is only below them) alone', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const branches = ['one', 'two', 'three'].map((text) => canvas.addQuestion(text, { autoRerun: 1 }));
    const plain = canvas.addQuestion('plain');
    const belowPlain = canvas.addQuestion('below plain', { autoRerun: 1 });
    for (const branch of branches) canvas.wire(root, branch);
    canvas.wire(root, plain);
    canvas.wire(plain, belowPlain);
    // A flagged node below an unflagged one still reruns: its ancestor `root` completed (C4).
    expect(ids(autoRerunWave(canvas.graph, root))).toEqual([...branches, belowPlain]);
    expect(ids(autoRerunWave(canvas.graph, branches[0]!))).toEqual([]);
  });

  it('archived nodes never run, and a flagged node below an archived one still does', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const archived = canvas.addQuestion('archived', { autoRerun: 1 });
    const below = canvas.addQuestion('below', { autoRerun: 1 });
    canvas.wire(root, archived);
    canvas.wire(archived, below);
    canvas.archive(archived);
    expect(ids(autoRerunWave(canvas.graph, root))).toEqual([below]);
    canvas.archive(below);
    expect(ids(autoRerunWave(canvas.graph, root))).toEqual([]);
  });

  it('rounds above 1 never multiply runs: one run per node per wave already sees every updated ancestor', () => {
    const canvas = new TestCanvas();
    const a = canvas.addQuestion('A');
    const b = canvas.addQuestion('B', { autoRerun: 3 });
    const c = canvas.addQuestion('C', { autoRerun: 10 });
    canvas.wire(a, b);
    canvas.wire(b, c);
    canvas.wire(a, c, 'full');
    const plan = autoRerunWave(canvas.graph, a);
    expect(ids(plan)).toEqual([b, c]);
    execute(canvas, a, plan);
    expect(versions(canvas, [a, b, c])).toEqual([1, 1, 1]);
  });

  it('what is below a failed or stopped step does not run; a sibling branch still does', () => {
    const canvas = new TestCanvas();
    const a = canvas.addQuestion('A');
    const b = canvas.addQuestion('B', { autoRerun: 1 });
    const c = canvas.addQuestion('C', { autoRerun: 1 });
    const sibling = canvas.addQuestion('sibling', { autoRerun: 1 });
    canvas.wire(a, b);
    canvas.wire(b, c);
    canvas.wire(a, sibling);
    const outcomes = execute(canvas, a, autoRerunWave(canvas.graph, a), new Set([b]));
    expect(Object.fromEntries(outcomes)).toEqual({
      [a]: 'complete',
      [b]: 'failed',
      [c]: 'skipped',
      [sibling]: 'complete',
    });
  });
});

describe('Replay is one wave (C8)', () => {
  it('runs the stale set and the auto-reruns below it in one dependency order, each once', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const first = canvas.addQuestion('first');
    const second = canvas.addQuestion('second');
    const below = canvas.addQuestion('below both', { autoRerun: 1 });
    canvas.wire(root, first);
    canvas.wire(root, second);
    canvas.wire(first, below);
    canvas.wire(second, below);
    for (const id of [root, first, second, below]) canvas.answer(id, 'first answer');
    // `below` was judged unaffected, so only an auto-rerun brings it along.
    canvas.answer(root, 'root, regenerated');
    canvas.judge(below, 0.1);
    expect(canvas.staleIds()).toEqual([first, second].sort());
    const plan = replayWave(canvas.graph, canvas.shownStale());
    expect(plan.map((step) => [step.nodeId, step.lane])).toEqual([
      [first, 'replay'],
      [second, 'replay'],
      [below, 'auto-rerun'],
    ]);
    execute(canvas, null, plan);
    expect(versions(canvas, [root, first, second, below])).toEqual([2, 2, 2, 2]);
    expect(canvas.staleIds()).toEqual([]);
  });

  it('a replay step runs after a failed one (the person asked for it); an auto-rerun below only failures does not', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const stale = canvas.addQuestion('stale');
    const alsoStale = canvas.addQuestion('also stale');
    const reviewer = canvas.addQuestion('reviewer', { autoRerun: 1 });
    canvas.wire(root, stale);
    canvas.wire(stale, alsoStale);
    canvas.wire(stale, reviewer);
    for (const id of [root, stale, alsoStale, reviewer]) canvas.answer(id, 'answer');
    canvas.answer(root, 'root, regenerated');
    canvas.judge(reviewer, 0.1);
    const outcomes = execute(canvas, null, replayWave(canvas.graph, canvas.shownStale()), new Set([stale]));
    expect(outcomes.get(alsoStale)).toBe('complete');
    expect(outcomes.get(reviewer)).toBe('skipped');
  });

  it('never plans an archived node, stale or flagged', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const child = canvas.addQuestion('child', { autoRerun: 1 });
    canvas.wire(root, child);
    canvas.answer(root, 'answer');
    canvas.answer(child, 'answer');
    canvas.edit(root, { question: 'edited' });
    canvas.archive(child);
    expect(ids(replayWave(canvas.graph, new Set([root, child])))).toEqual([root]);
  });
});

describe('wave plans on random DAGs', () => {
  it('list each live flagged descendant exactly once, after every wave node upstream of it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }).chain((count) =>
          fc.record({
            flags: fc.array(
              fc.record({ auto: fc.boolean(), archived: fc.boolean(), rounds: fc.integer({ min: 1, max: 3 }) }),
              {
                minLength: count,
                maxLength: count,
              },
            ),
            edges: fc.uniqueArray(
              fc
                .tuple(fc.integer({ min: 0, max: count - 1 }), fc.integer({ min: 0, max: count - 1 }))
                .filter(([a, b]) => a < b),
              { selector: ([a, b]) => `${a}-${b}`, maxLength: count * 2 },
            ),
            start: fc.integer({ min: 0, max: count - 1 }),
          }),
        ),
        ({ flags, edges, start }) => {
          const canvas = new TestCanvas();
          const nodes = flags.map((flag, index) =>
            canvas.addQuestion(`q${index}`, flag.auto ? { autoRerun: flag.rounds } : {}),
          );
          for (const [from, to] of edges) canvas.wire(nodes[from]!, nodes[to]!, to % 3 === 0 ? 'quote' : 'solid');
          flags.forEach((flag, index) => flag.archived && canvas.archive(nodes[index]!));
          const plan = autoRerunWave(canvas.graph, nodes[start]!);
          const below = descendants(canvas.graph, [nodes[start]!]);
          const expected = nodes.filter((id, index) => below.has(id) && flags[index]!.auto && !flags[index]!.archived);
          expect(ids(plan).sort()).toEqual(expected.sort());
          const position = new Map(plan.map((step, index) => [step.nodeId, index]));
          for (const step of plan) {
            expect(step.after).toContain(nodes[start]);
            for (const id of step.after)
              if (id !== nodes[start]) expect(position.get(id)!).toBeLessThan(position.get(step.nodeId)!);
            for (const id of ancestors(canvas.graph, step.nodeId, 'all'))
              if (position.has(id)) expect(step.after).toContain(id);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
