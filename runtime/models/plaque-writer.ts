import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { OFFLINE_RECEIPT_MODEL_ID, type Plaque, type PlaqueRefusal, type PlaqueRequest } from '../../protocol/index.ts';
import {
  abstractSizeFor,
  gradedPlaque,
  modelGrade,
  plaqueFrom,
  ruleGrade,
  readLadderJson,
  ruleLadder,
  splitSentences,
  validateLadder,
  type AnswerSentence,
} from '../../src/core/index.ts';

/** A plaque is a courtesy: a model slower than this is not waited for, and the rule writes it. */
export const PLAQUE_TIMEOUT_MS = 20_000;

export interface PlaqueModel {
  id: string;
  model: LanguageModelV3;
}

export interface PlaqueOutcome {
  /** Null when neither the answer nor the question has a word to summarise. */
  plaque: Plaque | null;
  /** The model's text was refused (or it did not answer): why, with a readable message for the log. */
  refusal: { code: PlaqueRefusal; message: string } | null;
}

/** The ladder prompt (C32): the thread of ancestor plaques, the question, and the answer's numbered sentences. */
export function plaquePrompt(
  request: Pick<PlaqueRequest, 'question' | 'thread'>,
  sentences: readonly AnswerSentence[],
): { system: string; prompt: string } {
  const { least, most } = abstractSizeFor(sentences.length);
  const count = least === most ? `${least}` : `${least} or ${most}`;
  const thread = request.thread.length > 0 ? request.thread.map((line) => `- ${line}`).join('\n') : '(none)';
  return {
    system:
      'You write plaques: one-line summaries shown on a map of a conversation. You answer with one JSON object and nothing else.',
    prompt: [
      `Thread so far (earlier plaques):\n${thread}`,
      `Question:\n${request.question.trim()}`,
      `Answer, one numbered sentence per line:\n${sentences.map((sentence) => `${sentence.number}. ${sentence.text}`).join('\n')}`,
      'Write the ladder for this answer:',
      '- "takeaway": the answer\'s point in one line (at most 200 characters), in words the thread has not said yet;',
      '- "topic": one to four words copied exactly from inside the takeaway;',
      '- "reason": one short sentence on why that is the point;',
      `- "sentences": the numbers of the ${count} sentences that best carry the answer;`,
      '- "summaryType": one of finding, recommendation, explanation, procedure, comparison;',
      '- "conclusiveness": settled (the answer says it plainly), tentative (it hedges) or open (it leaves the question open).',
      'Answer with JSON only, for example {"topic":"schema versions","takeaway":"Dexie migrations run by schema versions","reason":"Most of the answer is about versioning.","sentences":[1,3,4],"summaryType":"explanation","conclusiveness":"settled"}',
    ].join('\n\n'),
  };
}

/**
 * Writes one answer's plaque (C32): asks `model` for the ladder and validates it in core; with no model, a refusal,
 * a timeout or a provider error, the rule fallback writes it (the first sentences) and the refusal says why.
 */
export async function writePlaque(
  request: Pick<PlaqueRequest, 'question' | 'answer' | 'thread'> & { model?: string },
  options: { model: PlaqueModel | null; now: () => number; timeoutMs?: number },
): Promise<PlaqueOutcome> {
  const rule = (refusal: PlaqueOutcome['refusal']): PlaqueOutcome => {
    // The offline receipt's answer opens the same way every time: its plaque says what was asked instead.
    const ladder = ruleLadder(request.question, request.answer, {
      receipt: request.model === OFFLINE_RECEIPT_MODEL_ID,
    });
    const writtenAt = options.now();
    return {
      plaque: ladder
        ? gradedPlaque(
            plaqueFrom(ladder, { model: null, writtenAt, ...(refusal ? { refusal: refusal.code } : {}) }),
            ruleGrade(ladder, request.answer),
          )
        : null,
      refusal,
    };
  };
  const sentences = splitSentences(request.answer);
  if (!options.model || sentences.length === 0) return rule(null);
  const { system, prompt } = plaquePrompt(request, sentences);
  let text: string;
  try {
    const result = await generateText({
      model: options.model.model,
      system,
      prompt,
      maxRetries: 0,
      temperature: 0,
      abortSignal: AbortSignal.timeout(options.timeoutMs ?? PLAQUE_TIMEOUT_MS),
    });
    text = result.text;
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed';
    return rule({ code: 'no-answer', message: `The model ${reason}.` });
  }
  const raw = readLadderJson(text);
  const checked = validateLadder(raw, sentences);
  if (!checked.ok) return rule(checked.error);
  // #29: the model's summary type and conclusiveness, each one it left out or misnamed taken from the rule.
  const grade = modelGrade(raw, ruleGrade(checked.value, request.answer));
  const plaque = plaqueFrom(checked.value, { model: options.model.id, writtenAt: options.now() });
  return { plaque: gradedPlaque(plaque, grade), refusal: null };
}
