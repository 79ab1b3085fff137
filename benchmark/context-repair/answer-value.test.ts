import { describe, expect, it } from 'vitest';
import { answerValue, askedVariable } from '../../src/core/answer-value.ts';
import { conditionContext } from './conditions.ts';
import { generateCases } from './generate-cases.ts';
import { RecomputeSession } from './recompute-session.ts';

describe('the final-answer number of a reply', () => {
  it.each([
    ['22', 'D', 22],
    ['42.0', 'D', 42],
    ['1,250', 'D', 1250],
    ['-7', 'D', -7],
    ['−7', 'D', -7],
    ['D = 22', 'D', 22],
    ['D = 22 (since C = 14)', 'D', 22],
    ['D = 22 (since C = 14)', null, 22],
    ['**22**', 'D', 22],
    ['Since C = 14, **22**.', null, 22],
    ['The answer is 22.', 'D', 22],
    ['The answer is **22** (C = 14, plus 8).', null, 22],
    ['Final answer: D = 22, from C = 14.', 'D', 22],
    ['\\boxed{22} because C = 14', null, 22],
    ['D = C + 8 = 14 + 8 = 22', 'D', 22],
    ['D = 22 because C = 14', 'D', 22],
    ['C = 14, so D = 14 + 8 = 22.', 'D', 22],
    ['The total is 1,250.0 units', null, 1250],
    ['22.5', 'D', 22.5],
  ])('%j (asked %s) gives %d', (reply, variable, value) => {
    expect(answerValue(reply, variable)).toBe(value);
  });

  it('gives nothing when the reply holds no number', () => {
    expect(answerValue('I cannot tell what D is.', 'D')).toBeNull();
  });

  it('reads the asked variable from the request: the target for a final request, the descendant for a Replay step', () => {
    for (const benchCase of generateCases({ perCell: 1 }).cases.filter((item) => item.depth === 3)) {
      expect(askedVariable(conditionContext(benchCase, 'stale-instruction', 'm').built.request)).toBe(benchCase.target);
      const session = new RecomputeSession(benchCase, 'm');
      const first = session.steps[0]!;
      expect(askedVariable(session.stepContext(first).built.request)).toBe(first.name);
    }
  });
});
