import type { DecideRequest } from '../../protocol/index.ts';
import { estimateTokensByLength } from '../../src/core/index.ts';
import { judgePrompt } from '../models/index.ts';

/** Input tokens of one decision request exactly as the judge is sent it (system and prompt), by length. */
export function judgeRequestTokens(request: DecideRequest): number {
  const { system, prompt } = judgePrompt(request);
  return estimateTokensByLength(system) + estimateTokensByLength(prompt);
}
