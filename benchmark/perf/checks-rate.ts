/**
 * `checks_per_s` (issue 31): the non-model checks (contains, does not contain, regex, number, JSON against a schema)
 * run on answers of about 2,000 characters as the app runs them on a new version — `checkEventsFor`, so each result
 * also becomes its event draft. Rubrics need the decision model and are not counted.
 */
import type { AnswerCheck, QuestionNode, Version } from '../../protocol/index.ts';
import { checkEventsFor } from '../../src/core/index.ts';
import { scale } from './quick-mode.ts';

const CHECKS: AnswerCheck[] = [
  { id: 'has-term', kind: 'contains', text: 'confidence interval' },
  { id: 'no-refusal', kind: 'not-contains', text: 'as an AI' },
  { id: 'p-value', kind: 'regex', pattern: 'p\\s*[<=]\\s*0\\.\\d+', ignoreCase: true },
  { id: 'estimate', kind: 'number', value: 42, tolerance: 0.5 },
  {
    id: 'record',
    kind: 'json',
    schema: {
      type: 'object',
      required: ['effect', 'n'],
      properties: { effect: { type: 'number' }, n: { type: 'integer', minimum: 1 }, notes: { type: 'string' } },
    },
  },
];

function answer(index: number): string {
  const prose = `Across the ${index + 12} cohorts the effect held (p = 0.0${(index % 9) + 1}), with a 95% confidence interval of 3.1 to 5.4. `;
  const body = prose.repeat(12);
  const record = JSON.stringify({ effect: 4.2 + index / 100, n: 120 + index, notes: 'pooled' });
  return `${body}\n\n\`\`\`json\n${record}\n\`\`\`\n\nSo the answer is ${41 + (index % 3)}.`;
}

function version(index: number): Version {
  return {
    id: `v-${index}`,
    text: answer(index),
    status: 'complete',
  } as Version;
}

/** Checks run per second over `ROUNDS` passes of 200 versions × 5 checks (the median pass). */
export function checksPerSecond(): number {
  const node = { id: 'q', kind: 'question', checks: CHECKS } as unknown as QuestionNode;
  const versions = Array.from({ length: 200 }, (_, index) => version(index));
  const rates: number[] = [];
  for (let round = 0; round < scale(9, 2); round += 1) {
    const started = performance.now();
    let results = 0;
    for (const each of versions) results += checkEventsFor(node, each).length;
    const seconds = (performance.now() - started) / 1000;
    if (results !== versions.length * CHECKS.length) throw new Error(`checks: ${results} results`);
    rates.push(results / seconds);
  }
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
}
