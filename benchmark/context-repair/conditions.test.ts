import { describe, expect, it } from 'vitest';
import { STALE_MARK } from '../../src/core/index.ts';
import { CONDITIONS, conditionContext, DISTRUST_INSTRUCTION, equivalenceProblems } from './conditions.ts';
import { buildCaseCanvas } from './case-canvas.ts';
import { generateCases } from './generate-cases.ts';

const { cases } = generateCases({ perCell: 1 });
const text = (context: ReturnType<typeof conditionContext>) =>
  context.built.request.messages
    .map((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''))
    .join('\n');

describe('the seven conditions', () => {
  it('every condition of every family and depth compiles through core and matches the reference compiler', () => {
    for (const benchCase of cases)
      for (const condition of CONDITIONS) {
        const context = conditionContext(benchCase, condition, 'test/model');
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
    expect(conditionContext(benchCase, 'recompute-descendants', 'm').operations.slice(1)).toEqual([
      `archive ${benchCase.source}`,
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
    for (const condition of ['clean', 'polluted', 'source-prune', 'subgraph-prune', 'recompute-descendants'] as const)
      expect(text(conditionContext(benchCase, condition, 'm'))).not.toContain(STALE_MARK);
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
