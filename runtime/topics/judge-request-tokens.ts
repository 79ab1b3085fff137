import type { DecideRequest } from '../../protocol/index.ts';
import { estimateTokensByScript } from '../../src/core/index.ts';
import { judgePrompt } from '../models/index.ts';

/** Input tokens of one decision request exactly as the judge is sent it (system and prompt), CJK counted whole. */
export function judgeRequestTokens(request: DecideRequest): number {
  const { system, prompt } = judgePrompt(request);
  return estimateTokensByScript(system) + estimateTokensByScript(prompt);
}
