import type { CanonicalRequest } from '../../protocol/index.ts';
import { jsHashPort, type HashPort } from './hash-port.ts';
import { hashCanonical } from './hashing.ts';

/** The longest answer a rubric's judge is shown; a longer answer is cut with a mark saying so. */
export const RUBRIC_ANSWER_MAX = 40_000;

const SYSTEM =
  'You grade one answer against one rubric. You never answer in prose. Reply with one JSON object: ' +
  '{"verdict": "pass" or "fail", "reason": one sentence of at most 200 characters}.';

/**
 * Issue 31: the request a rubric check sends to the decision model — a canonical request like any dispatch, so it
 * has a request hash the server recomputes and logs and the check's event keeps. Both sides build it here.
 */
export function rubricRequest(
  input: { question: string; answer: string; rubric: string },
  model: string,
  hash: HashPort = jsHashPort,
): { request: CanonicalRequest; requestHash: string } {
  const answer =
    input.answer.length > RUBRIC_ANSWER_MAX
      ? `${input.answer.slice(0, RUBRIC_ANSWER_MAX)}\n[cut: ${input.answer.length - RUBRIC_ANSWER_MAX} more characters]`
      : input.answer;
  const request: CanonicalRequest = {
    model,
    messages: [
      { role: 'system', content: [{ type: 'text', text: SYSTEM }] },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `Rubric: ${input.rubric}\n\nQuestion: ${input.question}\n\nAnswer:\n${answer}\n\nDoes the answer meet the rubric? JSON only.`,
          },
        ],
      },
    ],
    tools: {},
    temperature: 0,
  };
  return { request, requestHash: hashCanonical(request, hash) };
}

export interface RubricVerdict {
  verdict: 'pass' | 'fail';
  reason: string;
}

/** The judge's verdict out of its reply (code fences and prose around the JSON tolerated), or null if unreadable. */
export function parseRubricVerdict(text: string): RubricVerdict | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const { verdict, reason } = json as { verdict?: unknown; reason?: unknown };
  if (verdict !== 'pass' && verdict !== 'fail') return null;
  return { verdict, reason: typeof reason === 'string' ? reason.trim().slice(0, 200) : '' };
}
