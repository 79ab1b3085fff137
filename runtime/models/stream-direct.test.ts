import { streamText, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/index.ts';
import { createLanguageModel } from './create-language-model.ts';
import type { ProviderConfig } from './provider-config.ts';
import { streamAnswer } from './stream-answer.ts';

// The SDK's own streamText, called below for comparison, would print its provider warnings.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let provider: ScriptedProvider;
beforeAll(async () => {
  provider = await startScriptedProvider();
});
afterAll(async () => {
  await provider.close();
});

function config(kind: 'openai-compatible' | 'anthropic'): ProviderConfig {
  return {
    id: kind === 'anthropic' ? 'claude' : 'local',
    kind,
    baseUrl: `${provider.url}/v1`,
    apiKey: 'sk-direct-0123456789',
    models: ['m'],
    enabled: true,
  } as ProviderConfig;
}

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
/** A canonical request's shape: the person's role text, a question with an image, an answer, an empty part. */
const messages: ModelMessage[] = [
  { role: 'system', content: 'You answer in one line.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in the figure?' },
      { type: 'image', image: png, mediaType: 'image/png' },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'A bar chart.' }] },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Which bar is tallest?' },
      { type: 'text', text: '' },
    ],
  },
];

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('streamAnswer without tools reads the provider stream directly', () => {
  for (const kind of ['openai-compatible', 'anthropic'] as const) {
    it(`sends ${kind} the very request the SDK's streamText sends, and streams the answer`, async () => {
      const model = createLanguageModel(config(kind), 'm');
      provider.script(
        { text: 'The second bar.', chunkSize: 4, usage: { input: 31, output: 5 } },
        { text: 'The second bar.', chunkSize: 4, usage: { input: 31, output: 5 } },
      );
      provider.requests.length = 0;
      const events = await collect(
        streamAnswer({ model, messages, abortSignal: new AbortController().signal, temperature: 0.3, seed: 7 }),
      );
      const viaSdk = streamText({
        model,
        messages,
        allowSystemInMessages: true,
        maxRetries: 0,
        temperature: 0.3,
        seed: 7,
        onError: () => undefined,
      });
      for await (const part of viaSdk.fullStream) void part;

      expect(provider.requests).toHaveLength(2);
      expect(provider.requests[0]!.body).toEqual(provider.requests[1]!.body);
      expect(
        events
          .filter((event) => event.type === 'text-delta')
          .map((event) => event.delta)
          .join(''),
      ).toBe('The second bar.');
      expect(events.at(-1)).toEqual({
        type: 'answer-finished',
        finishReason: 'stop',
        usage: { inputTokens: 31, outputTokens: 5 },
      });
    });
  }

  it('reports what the provider did not honour, as streamText does (a seed Anthropic ignores)', async () => {
    const model = createLanguageModel(config('anthropic'), 'm');
    const reported: unknown[] = [];
    const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    global.AI_SDK_LOG_WARNINGS = (report: unknown) => reported.push(report);
    try {
      provider.script({ text: 'Fine.' });
      await collect(streamAnswer({ model, messages, abortSignal: new AbortController().signal, seed: 7 }));
    } finally {
      global.AI_SDK_LOG_WARNINGS = false;
    }
    expect(reported).toEqual([
      expect.objectContaining({
        provider: 'anthropic.messages',
        model: 'm',
        warnings: expect.arrayContaining([{ type: 'unsupported', feature: 'seed' }]),
      }),
    ]);
  });

  it('records a tool call the model makes when no tool was declared, as the tool loop does', async () => {
    const model = createLanguageModel(config('openai-compatible'), 'm');
    provider.script({ text: 'Let me look.', toolCalls: [{ id: 'c1', name: 'read_file', input: { path: 'a.txt' } }] });
    const events = await collect(streamAnswer({ model, messages, abortSignal: new AbortController().signal }));
    expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-started', callId: 'c1', tool: 'read_file', input: '{"path":"a.txt"}' },
      expect.objectContaining({
        type: 'tool-call-finished',
        callId: 'c1',
        tool: 'read_file',
        status: 'error',
        code: 'tool-not-declared',
      }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished', finishReason: 'tool-calls' });
  });

  it('ends in one coded failure for a refused key, a stop mid-answer, and a stream that never finishes', async () => {
    const model = createLanguageModel(config('openai-compatible'), 'm');
    provider.script({ status: 401, errorMessage: 'bad key sk-direct-0123456789' });
    const refused = await collect(
      streamAnswer({
        model,
        messages,
        abortSignal: new AbortController().signal,
        secrets: ['sk-direct-0123456789'],
      }),
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ type: 'answer-failed', code: 'bad-key' });
    expect(JSON.stringify(refused)).not.toContain('sk-direct-0123456789');

    provider.script({ text: 'Half an ans', hang: true });
    const controller = new AbortController();
    const stopped: StreamEvent[] = [];
    const before = provider.requests.length;
    for await (const event of streamAnswer({ model, messages, abortSignal: controller.signal })) {
      stopped.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(stopped.at(-1)).toMatchObject({ type: 'answer-failed', code: 'aborted' });
    expect((await provider.waitForEnd(before)).aborted).toBe(true);

    provider.script({ text: 'Cut off', drop: true });
    const dropped = await collect(streamAnswer({ model, messages, abortSignal: new AbortController().signal }));
    expect(dropped.filter((event) => event.type === 'answer-failed' || event.type === 'answer-finished')).toEqual([
      expect.objectContaining({ type: 'answer-failed' }),
    ]);
  });
});
