import {
  CANDIDATES_PER_REQUEST,
  JUDGE_OPENING_CHARS,
  opening,
  redactCredentials,
} from '../../src/core/recall/index.ts';
import type { RankedCandidate } from '../../src/core/recall/index.ts';
import type { DecideRequest, DecideResponse } from '../../protocol/index.ts';

/** The decision port recall asks (the server's `DecisionJudge`). */
export interface RelevanceJudge {
  decide(request: DecideRequest): Promise<DecideResponse>;
}

/** What one candidate shows the judge: its redacted opening, nothing more (the only recalled text that leaves). */
export function judgeOpening(candidate: RankedCandidate['candidate']): string {
  return opening(redactCredentials(`${candidate.question}\n${candidate.answer}`).text, JUDGE_OPENING_CHARS);
}

/** The prompt of one decision request over up to forty candidates. */
export function relevancePrompt(question: string, batch: readonly RankedCandidate[]): DecideRequest {
  const lines = batch.map((entry, index) => `c${index + 1}: ${judgeOpening(entry.candidate).replace(/\s+/g, ' ')}`);
  return {
    kind: 'recall-relevance',
    prompt: `Which of these past excerpts help answer the question? Spread the probability over the helpful ones.\n\nQuestion: ${question}\n\nExcerpts:\n${lines.join('\n')}`,
    options: batch.map((_entry, index) => `c${index + 1}`),
  };
}

/**
 * C16: the judge's relevance of the candidates it reads, forty to a request; a batch the judge did not answer (the
 * rule fallback) gives no relevance, so the ranking stays matched terms and recency.
 */
export async function judgeRelevance(
  judge: RelevanceJudge,
  question: string,
  reads: readonly RankedCandidate[],
): Promise<Map<string, number>> {
  const relevance = new Map<string, number>();
  for (let start = 0; start < reads.length; start += CANDIDATES_PER_REQUEST) {
    const batch = reads.slice(start, start + CANDIDATES_PER_REQUEST);
    const answer = await judge.decide(relevancePrompt(question, batch));
    if (answer.fallback) continue;
    // Relative to an even spread, so batches of different sizes compare.
    batch.forEach((entry, index) =>
      relevance.set(
        entry.candidate.key,
        Math.min(1, ((answer.probabilities[`c${index + 1}`] ?? 0) * batch.length) / 2),
      ),
    );
  }
  return relevance;
}

/** How many judged plans a relevance memo keeps (oldest dropped first). */
const MEMO_ENTRIES = 200;

/**
 * The judge's relevance remembered per (judge, question, the exact openings read): the preview and the run of an ask
 * plan the same block, so its bytes — and the commit's hash — do not depend on a second answer, and the judge is not
 * asked again while the person only looks. A partial answer (a batch fell back) is not kept.
 */
export class RelevanceMemo {
  private readonly entries = new Map<string, Map<string, number>>();

  constructor(private readonly hash: (text: string) => string) {}

  async relevance(
    judge: RelevanceJudge & { modelId: string },
    question: string,
    reads: readonly RankedCandidate[],
  ): Promise<Map<string, number>> {
    const key = this.hash(
      JSON.stringify([
        judge.modelId,
        question,
        reads.map((entry) => [entry.candidate.key, judgeOpening(entry.candidate)]),
      ]),
    );
    const known = this.entries.get(key);
    if (known) return new Map(known);
    const relevance = await judgeRelevance(judge, question, reads);
    // Only a full answer is kept: a batch the judge missed (the rule fallback) is asked again next time.
    if (relevance.size < reads.length) return relevance;
    this.entries.set(key, relevance);
    if (this.entries.size > MEMO_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return new Map(relevance);
  }
}
