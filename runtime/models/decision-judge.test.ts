import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DecisionJudge, fallbackProbabilities, parseJudgeAnswer } from './decision-judge.ts';

function answering(text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (): Promise<LanguageModelV3GenerateResult> => ({
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

/** A judge that never answers on its own; it only stops when aborted. */
function silent(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: (options: LanguageModelV3CallOptions) =>
      new Promise((_resolve, reject) =>
        options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason as Error)),
      ),
  });
}

const request = { kind: 'stale', prompt: 'Did the upstream change matter?', options: ['stale', 'fresh'] };

afterEach(() => {
  vi.useRealTimers();
});

describe('parseJudgeAnswer', () => {
  it('reads JSON in prose or fences and normalises over the options', () => {
    expect(parseJudgeAnswer('```json\n{"stale": 3, "fresh": 1}\n```', ['stale', 'fresh'])).toEqual({
      stale: 0.75,
      fresh: 0.25,
    });
    expect(parseJudgeAnswer('{"stale": 0.2, "other": 5}', ['stale', 'fresh'])).toEqual({ stale: 1, fresh: 0 });
    expect(parseJudgeAnswer('I think it is stale.', ['stale', 'fresh'])).toBeNull();
    expect(parseJudgeAnswer('{"stale": "high"}', ['stale', 'fresh'])).toBeNull();
    expect(parseJudgeAnswer('{"stale": 0, "fresh": 0}', ['stale', 'fresh'])).toBeNull();
  });

  it('falls back to the option named default, else uniform', () => {
    expect(fallbackProbabilities(['keep', 'default', 'drop'])).toEqual({ keep: 0, default: 1, drop: 0 });
    expect(fallbackProbabilities(['a', 'b', 'c', 'd'])).toEqual({ a: 0.25, b: 0.25, c: 0.25, d: 0.25 });
  });
});

describe('DecisionJudge', () => {
  it('returns the judge probabilities and its model id', async () => {
    const judge = new DecisionJudge({
      judgeModel: async () => ({ id: 'local/judge', model: answering('{"stale":0.9,"fresh":0.1}') }),
    });
    expect(await judge.decide(request)).toEqual({
      probabilities: { stale: 0.9, fresh: 0.1 },
      fallback: false,
      model: 'local/judge',
    });
  });

  it('uses the rule fallback when no judge is configured', async () => {
    const judge = new DecisionJudge({ judgeModel: async () => null });
    expect(await judge.decide(request)).toEqual({
      probabilities: { stale: 0.5, fresh: 0.5 },
      fallback: true,
      model: null,
    });
  });

  it('falls back after six seconds without an answer, then skips the judge for a minute', async () => {
    vi.useFakeTimers();
    let now = 1_000_000;
    const model = silent();
    const judgeModel = vi.fn(async () => ({ id: 'local/judge', model }));
    const judge = new DecisionJudge({ judgeModel, now: () => now });

    const pending = judge.decide(request);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(5_900);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(await pending).toEqual({ probabilities: { stale: 0.5, fresh: 0.5 }, fallback: true, model: null });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(model.doGenerateCalls[0]!.abortSignal?.aborted).toBe(true);

    now += 59_000;
    expect(await judge.decide(request)).toMatchObject({ fallback: true });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(judge.isCoolingDown()).toBe(true);

    now += 2_000;
    expect(judge.isCoolingDown()).toBe(false);
    const again = judge.decide(request);
    await vi.advanceTimersByTimeAsync(6_001);
    await again;
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('a failing or unreadable judge skips it for a minute', async () => {
    let now = 0;
    const model = answering('Stale, I would say.');
    const judge = new DecisionJudge({ judgeModel: async () => ({ id: 'local/judge', model }), now: () => now });
    expect(await judge.decide(request)).toMatchObject({ fallback: true });
    expect(await judge.decide(request)).toMatchObject({ fallback: true });
    expect(model.doGenerateCalls).toHaveLength(1);
    now += 60_001;
    await judge.decide(request);
    expect(model.doGenerateCalls).toHaveLength(2);

    const throwing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('HTTP 500');
      },
    });
    const failing = new DecisionJudge({ judgeModel: async () => ({ id: 'x/y', model: throwing }), now: () => now });
    expect(await failing.decide(request)).toMatchObject({ fallback: true });
    expect(failing.isCoolingDown()).toBe(true);
  });
});
