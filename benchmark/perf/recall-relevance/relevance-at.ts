import type { RecallPlanResponse } from '../../../protocol/index.ts';

/**
 * One expected answer: a turn key, or the keys of one piece of work several runners recorded word for word (recall
 * keeps one excerpt of identical words and lists the others as duplicates, so any one of them is the answer).
 */
export type ExpectedTurn = string | readonly string[];

/**
 * Precision@5 and recall@10 of one plan against the turns a person expects. Precision is over `min(5, expected)`
 * places, so a question with two right answers can score 1 when both are among the first five.
 */
export function relevanceAt(
  plan: Pick<RecallPlanResponse, 'items'>,
  expected: readonly ExpectedTurn[],
): { precisionAt5: number; recallAt10: number } {
  const hits = (count: number) => {
    const found = new Set(plan.items.slice(0, count).map((item) => item.id));
    return expected.filter((answer) => (typeof answer === 'string' ? [answer] : answer).some((id) => found.has(id)))
      .length;
  };
  return {
    precisionAt5: hits(5) / Math.min(5, expected.length),
    recallAt10: hits(10) / expected.length,
  };
}
