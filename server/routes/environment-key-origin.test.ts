import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsResponse } from '../../protocol/http-api.ts';
import { hashCanonical } from '../../src/core/hashing.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/**
 * Issue 27.2: a key from the environment goes only to its provider kind's official origin. A settings entry
 * that points elsewhere (another host, or another kind) asks for its own key; moving an entry away says so.
 * The key sits in the server's environment and in the process environment too (as in a real start), so the
 * AI SDK's own fallback to `process.env.OPENAI_API_KEY` is covered.
 */
const ENVIRONMENT_KEY = 'sk-environment-official-only-0123456789';
let server: TestServer;
let listener: ScriptedProvider;
let other: ScriptedProvider;
const previousProcessKey = process.env.OPENAI_API_KEY;

beforeAll(async () => {
  process.env.OPENAI_API_KEY = ENVIRONMENT_KEY;
  listener = await startScriptedProvider();
  other = await startScriptedProvider();
  server = await startTestServer({ env: { OPENAI_API_KEY: ENVIRONMENT_KEY } });
});
afterAll(async () => {
  await server.dispose();
  await listener.close();
  await other.close();
  if (previousProcessKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = previousProcessKey;
});
afterEach(async () => {
  await put({ removeProviders: ['openai', 'compatible'] });
  listener.requests.length = 0;
  other.requests.length = 0;
});

async function put(body: unknown): Promise<SettingsResponse> {
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as SettingsResponse;
}

const entry = (id: string, kind: 'openai' | 'openai-compatible', baseUrl: string | null, apiKey?: string) => ({
  providers: [{ id, kind, baseUrl, models: ['scripted-model'], ...(apiKey ? { apiKey } : {}) }],
});

/** Asks `model`; returns every Authorization header the listeners saw and the stream's last event type. */
async function ask(model: string): Promise<{ headers: string[]; last: string | undefined }> {
  listener.script({ text: 'An answer.' });
  other.script({ text: 'An answer.' });
  const request = {
    model,
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Who gets the key?' }] }],
    tools: {},
  };
  const response = await server.api('/api/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request, requestHash: hashCanonical(request), images: [] }),
  });
  const events = response.ok ? await collectStreamEvents(response) : [];
  const seen = [...listener.requests, ...other.requests];
  return {
    headers: seen.map((recorded) => String(recorded.headers.authorization ?? '')),
    last: events.at(-1)?.type,
  };
}

const providerOf = (settings: SettingsResponse, id: string) => settings.providers.find((p) => p.id === id);

describe('an environment key goes only to its official origin', () => {
  it('an `openai` entry at the official origin has the environment key', async () => {
    const settings = await put(entry('openai', 'openai', null));
    expect(providerOf(settings, 'openai')?.hasKey).toBe(true);
  });

  it('an `openai` entry pointed at another host does not receive it, and asks for its own key', async () => {
    const settings = await put(entry('openai', 'openai', `${listener.url}/v1`));
    expect(providerOf(settings, 'openai')?.hasKey).toBe(false);
    const { headers } = await ask('openai/scripted-model');
    expect(headers.join('\n')).not.toContain(ENVIRONMENT_KEY);
    expect(JSON.stringify(listener.requests)).not.toContain(ENVIRONMENT_KEY);

    // A key entered for that origin: exactly that key goes there.
    await put(entry('openai', 'openai', `${listener.url}/v1`, 'sk-entered-for-listener-01'));
    const entered = await ask('openai/scripted-model');
    expect(entered.last).toBe('answer-finished');
    expect(entered.headers).toEqual(['Bearer sk-entered-for-listener-01']);

    // Moved to another origin: that key is removed, the environment key does not take its place.
    const moved = await put(entry('openai', 'openai', `${other.url}/v1`));
    expect(moved.keysCleared).toEqual(['openai']);
    expect(providerOf(moved, 'openai')?.hasKey).toBe(false);
    listener.requests.length = 0;
    const after = await ask('openai/scripted-model');
    expect(after.headers.join('\n')).not.toContain('sk-entered-for-listener-01');
    expect(after.headers.join('\n')).not.toContain(ENVIRONMENT_KEY);
  });

  it('an `openai-compatible` entry with the id `openai` never receives it', async () => {
    const settings = await put(entry('openai', 'openai-compatible', `${listener.url}/v1`));
    expect(providerOf(settings, 'openai')?.hasKey).toBe(false);
    const { headers, last } = await ask('openai/scripted-model');
    // A compatible server needs no key, so the request goes out: without any Authorization.
    expect(last).toBe('answer-finished');
    expect(listener.requests).toHaveLength(1);
    expect(headers.join('\n')).not.toContain(ENVIRONMENT_KEY);
    expect(JSON.stringify(listener.requests)).not.toContain(ENVIRONMENT_KEY);
  });

  it('moving an entry away from the official origin detaches the environment key and says so', async () => {
    await put(entry('openai', 'openai', null));
    const moved = await put(entry('openai', 'openai', `${listener.url}/v1`));
    expect(moved.environmentKeysDetached).toEqual(['openai']);
    expect(moved.keysCleared).toEqual([]);
    const kindChanged = await put(entry('openai', 'openai', null));
    expect(kindChanged.environmentKeysDetached).toEqual([]);
    const toCompatible = await put(entry('openai', 'openai-compatible', `${listener.url}/v1`));
    expect(toCompatible.environmentKeysDetached).toEqual(['openai']);
  });

  it('the environment key never reaches a log, even when no provider may send it', async () => {
    await put(entry('openai', 'openai-compatible', `${listener.url}/v1`));
    listener.script({ status: 500, errorMessage: `echo ${ENVIRONMENT_KEY}` });
    await ask('openai/scripted-model');
    expect(server.logger.lines.join('\n')).not.toContain(ENVIRONMENT_KEY);
  });
});
