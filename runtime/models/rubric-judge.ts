import { generateText } from 'ai';
import type { RubricCheckRequest, RubricCheckResponse } from '../../protocol/index.ts';
import { parseRubricVerdict, rubricRequest, type HashPort } from '../../src/core/index.ts';
import type { JudgeModel } from './decision-judge.ts';
import { toModelMessages } from './to-model-messages.ts';

export const RUBRIC_TIMEOUT_MS = 30_000;

/**
 * Issue 31: one rubric check judged by the decision model. The request is core's `rubricRequest` (so its hash is
 * the one the check's event keeps); the reply must be the verdict JSON, or the check is an error with the reason.
 */
export async function judgeRubric(
  judge: JudgeModel | null,
  body: RubricCheckRequest,
  hash: HashPort,
  timeoutMs = RUBRIC_TIMEOUT_MS,
): Promise<RubricCheckResponse> {
  if (!judge) return { verdict: null, reason: 'No decision model is set in Settings.', model: null, requestHash: null };
  const { request, requestHash } = rubricRequest(body, judge.id, hash);
  try {
    const { text } = await generateText({
      model: judge.model,
      messages: toModelMessages(request, new Map()),
      temperature: request.temperature,
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    const verdict = parseRubricVerdict(text);
    if (!verdict)
      return { verdict: null, reason: 'The judge’s reply could not be read.', model: judge.id, requestHash };
    return { ...verdict, model: judge.id, requestHash };
  } catch {
    return { verdict: null, reason: 'The judge did not answer.', model: judge.id, requestHash };
  }
}
