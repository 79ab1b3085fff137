import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { z } from 'zod';
import type { DecideRequest, DecideResponse } from '../../protocol/index.ts';

export const JUDGE_TIMEOUT_MS = 6000;
export const JUDGE_COOLDOWN_MS = 60_000;

/** The rule fallback: everything on the option named `default`, otherwise uniform. */
export function fallbackProbabilities(options: readonly string[]): Record<string, number> {
  const probabilities: Record<string, number> = {};
  const hasDefault = options.includes('default');
  for (const option of options)
    probabilities[option] = hasDefault ? (option === 'default' ? 1 : 0) : 1 / options.length;
  return probabilities;
}

const AnswerSchema = z.record(z.string(), z.number().finite().min(0));

/** Read `{option: probability}` out of a model's text (code fences and prose around it tolerated) and normalise. */
export function parseJudgeAnswer(text: string, options: readonly string[]): Record<string, number> | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const parsed = AnswerSchema.safeParse(json);
  if (!parsed.success) return null;
  const raw = options.map((option) => (Object.hasOwn(parsed.data, option) ? parsed.data[option]! : 0));
  const total = raw.reduce((sum, value) => sum + value, 0);
  if (!(total > 0)) return null;
  return Object.fromEntries(options.map((option, index) => [option, raw[index]! / total]));
}

export function judgePrompt(request: DecideRequest): { system: string; prompt: string } {
  const example = Object.fromEntries(
    request.options.map((option, index) => [
      option,
      index === 0 ? 0.7 : Number((0.3 / Math.max(1, request.options.length - 1)).toFixed(2)),
    ]),
  );
  return {
    system:
      'You are a decision model. You never answer in prose. You answer with one JSON object that maps every option to a probability between 0 and 1; the probabilities sum to 1.',
    prompt: `Decision: ${request.kind}\n\n${request.prompt}\n\nOptions: ${JSON.stringify(request.options)}\nAnswer with JSON only, for example ${JSON.stringify(example)}`,
  };
}

export interface JudgeModel {
  id: string;
  model: LanguageModelV3;
}

export interface DecisionJudgeOptions {
  /** The configured judge, or null when none is set. Only configured endpoints are ever called. */
  judgeModel: () => Promise<JudgeModel | null>;
  now?: () => number;
  timeoutMs?: number;
  cooldownMs?: number;
  onFailure?: (reason: string) => void;
}

/**
 * Decisions (C13): probabilities from the configured judge, or the rule fallback when no judge
 * answers within six seconds. A failure skips the judge for a minute.
 */
export class DecisionJudge {
  private skipUntil = 0;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly cooldownMs: number;

  constructor(private readonly options: DecisionJudgeOptions) {
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? JUDGE_TIMEOUT_MS;
    this.cooldownMs = options.cooldownMs ?? JUDGE_COOLDOWN_MS;
  }

  /** Whether the judge is currently being skipped after a failure. */
  isCoolingDown(): boolean {
    return this.now() < this.skipUntil;
  }

  async decide(request: DecideRequest): Promise<DecideResponse> {
    const fallback: DecideResponse = {
      probabilities: fallbackProbabilities(request.options),
      fallback: true,
      model: null,
    };
    const { system, prompt } = judgePrompt(request);
    const answer = await this.ask(system, prompt);
    if (!answer) return fallback;
    const probabilities = parseJudgeAnswer(answer.text, request.options);
    if (!probabilities) {
      this.fail('unreadable answer');
      return fallback;
    }
    return { probabilities, fallback: false, model: answer.model };
  }

  /**
   * A free-text answer from the same judge, on the same terms (six seconds, then a minute's skip): null when
   * no judge answered, so the caller takes its rule path. The caller validates the text (e.g. merge operations).
   */
  async compose(system: string, prompt: string): Promise<{ text: string; model: string } | null> {
    return this.ask(system, prompt);
  }

  private async ask(system: string, prompt: string): Promise<{ text: string; model: string } | null> {
    if (this.isCoolingDown()) return null;
    let judge: JudgeModel | null;
    try {
      judge = await this.options.judgeModel();
    } catch (error) {
      this.fail(`judge unavailable: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
    if (!judge) return null;

    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new DOMException('The judge did not answer in time.', 'TimeoutError'));
        resolve('timeout');
      }, this.timeoutMs);
    });
    const call = generateText({
      model: judge.model,
      system,
      prompt,
      abortSignal: controller.signal,
      maxRetries: 0,
      temperature: 0,
    }).then(
      (result) => ({ text: result.text }),
      (error: unknown) => ({ error }),
    );
    try {
      const outcome = await Promise.race([call, timeout]);
      if (outcome === 'timeout') {
        this.fail('timeout');
        return null;
      }
      if ('error' in outcome) {
        this.fail('error');
        return null;
      }
      return { text: outcome.text, model: judge.id };
    } finally {
      clearTimeout(timer);
    }
  }

  private fail(reason: string): void {
    this.skipUntil = this.now() + this.cooldownMs;
    this.options.onFailure?.(reason);
  }
}
