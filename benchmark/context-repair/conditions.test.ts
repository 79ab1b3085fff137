import { describe, expect, it } from 'vitest';
import { STALE_MARK } from '../../src/core/index.ts';
import { CONDITIONS, conditionContext, DISTRUST_INSTRUCTION, equivalenceProblems } from './conditions.ts';
import { evaluate } from './arithmetic.ts';
import { buildCaseCanvas } from './case-canvas.ts';
import { generateCases, type BenchCase } from './generate-cases.ts';
import { RecomputeSession } from './recompute-session.ts';
import { scriptedAnswer } from './scripted-models.ts';

const { cases } = generateCases({ perCell: 1 });
const text = (context: ReturnType<typeof conditionContext>) =>
  context.built.request.messages
    .map((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''))
    .join('\n');

const plain = (context: ReturnType<typeof conditionContext>) =>
  context.built.request.messages.map((message) => ({
    role: message.role,
    text: message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
  }));

/** Runs the Replay with the adopting scripted model answering each step; every request is checked on the way. */
function replayed(benchCase: BenchCase) {
  const session = new RecomputeSession(benchCase, 'test/model');
  const replies: string[] = [];
  for (const step of session.steps) {
    const context = session.stepContext(step);
    expect(equivalenceProblems(context, session.expectedAnswers()), `${benchCase.id} ${step.key}`).toEqual([]);
    replies.push(scriptedAnswer('adopt', plain(context)));
    session.regenerated(step, replies.at(-1)!);
  }
  const final = session.finalContext();
  expect(equivalenceProblems(final, session.expectedAnswers()), `${benchCase.id} final`).toEqual([]);
  return { session, replies, final };
}

describe('the seven conditions', () => {
  it('every condition of every family and depth compiles through core and matches the reference compiler', () => {
    for (const benchCase of cases)
      for (const condition of CONDITIONS) {
        const context =
          condition === 'recompute-descendants'
            ? replayed(benchCase).final
            : conditionContext(benchCase, condition, 'test/model');
        expect(equivalenceProblems(context), `${benchCase.id} ${condition}`).toEqual([]);
        expect(context.built.requestHash).toMatch(/^[0-9a-f]{64}$/);
      }
  });

  it('are graph operations: the source archived, the subgraph archived, descendants regenerated in Replay order', () => {
    const benchCase = cases.find((item) => item.family === 'chain' && item.depth === 3)!;
    const [first, second] = benchCase.contaminated;
    expect(conditionContext(benchCase, 'source-prune', 'm').operations).toEqual([
      `build polluted ${benchCase.source}`,
      `archive ${benchCase.source}`,
    ]);
    expect(conditionContext(benchCase, 'subgraph-prune', 'm').operations.slice(1)).toEqual([
      `archive ${benchCase.source}`,
      `archive ${first}`,
      `archive ${second}`,
    ]);
    expect(replayed(benchCase).final.operations.slice(1)).toEqual([
      `correct ${benchCase.source}`,
      `regenerate ${first}`,
      `regenerate ${second}`,
    ]);
  });

  it('polluted shows the wrong value; the stale conditions mark exactly the contaminated answers; clean and prune carry no mark', () => {
    const benchCase = cases.find((item) => item.family === 'chain' && item.depth === 3)!;
    const { nodeOf } = buildCaseCanvas(benchCase, true);
    expect(text(conditionContext(benchCase, 'polluted', 'm'))).toContain(
      `${benchCase.source} = ${benchCase.pollutedValue}`,
    );
    expect(text(conditionContext(benchCase, 'clean', 'm'))).not.toContain(
      `${benchCase.source} = ${benchCase.pollutedValue}`,
    );
    for (const condition of ['source-prune-stale', 'stale-instruction'] as const) {
      const context = conditionContext(benchCase, condition, 'm');
      expect([...context.stale].sort()).toEqual(benchCase.contaminated.map((name) => nodeOf.get(name)!).sort());
      expect(text(context).split(STALE_MARK).length - 1).toBe(benchCase.contaminated.length);
    }
    expect(text(conditionContext(benchCase, 'stale-instruction', 'm'))).toContain(DISTRUST_INSTRUCTION);
    expect(text(conditionContext(benchCase, 'source-prune-stale', 'm'))).not.toContain(DISTRUST_INSTRUCTION);
    for (const condition of ['clean', 'polluted', 'source-prune', 'subgraph-prune'] as const)
      expect(text(conditionContext(benchCase, condition, 'm'))).not.toContain(STALE_MARK);
    expect(text(replayed(benchCase).final)).not.toContain(STALE_MARK);
  });

  it('recompute-descendants replays exactly the contaminated descendants, upstream first, on contexts that hold the correction and the replies so far', () => {
    for (const benchCase of cases) {
      const { nodeOf } = buildCaseCanvas(benchCase, true);
      const { session, replies, final } = replayed(benchCase);
      expect(session.steps.map((step) => step.name)).toEqual(benchCase.contaminated);
      expect(session.steps.map((step) => step.nodeId)).toEqual(benchCase.contaminated.map((name) => nodeOf.get(name)));
      // The adopting model recomputes each from the corrected upstream: every regenerated value is right.
      expect(replies).toEqual(session.steps.map((step) => String(step.gold)));
      expect(final.stale.size).toBe(0);
      const sourceValue = evaluate(benchCase.variables).get(benchCase.source)!;
      // Where the target's chain holds the source (not only through a quoted reference), it is the correction.
      const sourceId = nodeOf.get(benchCase.source)!;
      if (final.compiled.sources.some((source) => source.nodeId === sourceId && source.part === 'answer'))
        expect(text(final)).toContain(`${benchCase.source} = ${sourceValue}`);
      expect(text(final)).not.toContain(`${benchCase.source} = ${benchCase.pollutedValue}\n`);
    }
  });

  it('a tampered regenerated answer fails the check', () => {
    const benchCase = cases.find((item) => item.family === 'chain' && item.depth === 2)!;
    const { session, final } = replayed(benchCase);
    const tampered = new Map(session.expectedAnswers());
    tampered.set(session.steps[0]!.nodeId, 'D = 0');
    expect(equivalenceProblems(final, tampered).join()).toMatch(/answer is not the one recorded/);
  });

  it('a quoted reference to a contaminated node carries the mark inside its block', () => {
    const benchCase = cases.find((item) => item.family === 'quote-reference' && item.depth === 2)!;
    const context = conditionContext(benchCase, 'source-prune-stale', 'm');
    const reference = context.compiled.sources.findIndex((source) => source.part === 'reference');
    const block = context.compiled.messages[reference]!.content.map((part) =>
      part.type === 'text' ? part.text : '',
    ).join('');
    expect(block).toContain(`Answer: ${STALE_MARK}`);
  });
});
