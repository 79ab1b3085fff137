import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelsResponseSchema, SettingsResponseSchema } from '../../protocol/http-api.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { startTestServer } from '../../tests/support/test-server.ts';

let provider: ScriptedProvider;
let scratch: string;

beforeAll(async () => {
  provider = await startScriptedProvider();
  scratch = await mkdtemp(join(tmpdir(), 'weft-models-'));
});
afterAll(async () => {
  await provider.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('GET /api/models', () => {
  it('offers only the labelled receipt model, as the default, on a fresh machine', async () => {
    const server = await startTestServer();
    try {
      const body = ModelsResponseSchema.parse(await (await server.api('/api/models')).json());
      expect(body.models).toEqual([
        {
          id: 'offline/receipt',
          provider: 'offline',
          label: 'Offline receipt (no model called)',
          contextWindow: expect.any(Number),
          takesImages: true,
          offline: true,
          pricePerMTokIn: 0,
          pricePerMTokOut: 0,
        },
      ]);
      expect(body.defaultModelId).toBe('offline/receipt');
    } finally {
      await server.dispose();
    }
  });

  it('lists hosted models for keys from .env and the environment, with context windows and image support', async () => {
    const dotenvPath = join(scratch, '.env');
    await writeFile(dotenvPath, 'OPENAI_API_KEY=sk-from-dotenv-file\n');
    const server = await startTestServer({ env: { ANTHROPIC_API_KEY: 'sk-ant-from-env' }, dotenvPath });
    try {
      const body = ModelsResponseSchema.parse(await (await server.api('/api/models')).json());
      const ids = body.models.map((model) => model.id);
      expect(ids).toContain('openai/gpt-4o');
      expect(ids).toContain('anthropic/claude-sonnet-4-5');
      expect(ids).not.toContain('openrouter/openai/gpt-4o-mini');
      expect(body.models.find((model) => model.id === 'openai/gpt-4o')).toMatchObject({
        contextWindow: 128_000,
        takesImages: true,
        offline: false,
      });
      expect(body.defaultModelId).not.toBe('offline/receipt');
      const settings = SettingsResponseSchema.parse(await (await server.api('/api/settings')).json());
      expect(settings.providers.map((entry) => [entry.id, entry.hasKey])).toEqual([
        ['openai', true],
        ['anthropic', true],
      ]);
    } finally {
      await server.dispose();
    }
  });

  it('detects a local Ollama from /api/tags and answers through its /v1 endpoint', async () => {
    provider.ollamaModels = ['llama3.2:3b', 'llava:7b'];
    const server = await startTestServer({ ollamaUrl: provider.url });
    try {
      const body = ModelsResponseSchema.parse(await (await server.api('/api/models')).json());
      expect(
        body.models.filter((model) => model.provider === 'ollama').map((model) => [model.id, model.takesImages]),
      ).toEqual([
        ['ollama/llama3.2:3b', false],
        ['ollama/llava:7b', true],
      ]);
      provider.script({ text: 'Local llama answer.' });
      const model = await server.context.registry.resolve('ollama/llama3.2:3b');
      const { generateText } = await import('ai');
      const result = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(result.text).toBe('Local llama answer.');
      expect(provider.requests.at(-1)!.path).toBe('/v1/chat/completions');
    } finally {
      await server.dispose();
    }
  });

  it('lists configured OpenAI-compatible model ids and honours the chosen default', async () => {
    const server = await startTestServer();
    try {
      await server.api('/api/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          providers: [
            {
              id: 'lmstudio',
              kind: 'openai-compatible',
              baseUrl: `${provider.url}/v1`,
              models: ['qwen-7b', 'mistral'],
            },
          ],
          defaultModelId: 'lmstudio/mistral',
        }),
      });
      const body = ModelsResponseSchema.parse(await (await server.api('/api/models')).json());
      expect(body.models.map((model) => model.id)).toEqual(['offline/receipt', 'lmstudio/qwen-7b', 'lmstudio/mistral']);
      expect(body.defaultModelId).toBe('lmstudio/mistral');
    } finally {
      await server.dispose();
    }
  });
});

describe('POST /api/decide', () => {
  it('asks only the configured judge and returns normalised probabilities', async () => {
    const server = await startTestServer();
    try {
      const fallback = await (
        await server.api('/api/decide', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'memory', prompt: 'Is this durable?', options: ['keep', 'default'] }),
        })
      ).json();
      expect(fallback).toEqual({ probabilities: { keep: 0, default: 1 }, fallback: true, model: null });

      await server.api('/api/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          providers: [{ id: 'judge', kind: 'openai-compatible', baseUrl: `${provider.url}/v1`, models: ['small'] }],
          judgeModelId: 'judge/small',
        }),
      });
      provider.script({ text: 'Here you go: {"stale": 3, "fresh": 1}' });
      const before = provider.requests.length;
      const answer = await (
        await server.api('/api/decide', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'stale', prompt: 'Upstream changed a number.', options: ['stale', 'fresh'] }),
        })
      ).json();
      expect(answer).toEqual({ probabilities: { stale: 0.75, fresh: 0.25 }, fallback: false, model: 'judge/small' });
      expect(provider.requests.length).toBe(before + 1);
      expect(JSON.stringify(provider.requests.at(-1)!.body)).toContain('Upstream changed a number.');

      // A provider error: fallback now, and the judge is skipped on the next call.
      provider.script({ status: 500 });
      const failed = await (
        await server.api('/api/decide', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'stale', prompt: 'x', options: ['stale', 'fresh'] }),
        })
      ).json();
      expect(failed).toMatchObject({ fallback: true, probabilities: { stale: 0.5, fresh: 0.5 } });
      const count = provider.requests.length;
      await server.api('/api/decide', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'stale', prompt: 'x', options: ['stale', 'fresh'] }),
      });
      expect(provider.requests.length).toBe(count);
    } finally {
      await server.dispose();
    }
  });
});
