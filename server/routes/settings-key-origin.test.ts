import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsResponse } from '../../protocol/http-api.ts';
import { hashCanonical } from '../../src/core/hashing.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/** Issue 10.7: a stored key is bound to the origin it was entered for; another origin never receives it. */
let server: TestServer;
let trusted: ScriptedProvider;
let elsewhere: ScriptedProvider;
const KEY = 'sk-bound-to-its-origin-0123456789';

beforeAll(async () => {
  trusted = await startScriptedProvider();
  elsewhere = await startScriptedProvider();
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
  await trusted.close();
  await elsewhere.close();
});
beforeEach(() => {
  trusted.requests.length = 0;
  elsewhere.requests.length = 0;
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

const local = (baseUrl: string, apiKey?: string) => ({
  providers: [
    { id: 'local', kind: 'openai-compatible', baseUrl, models: ['scripted-model'], ...(apiKey ? { apiKey } : {}) },
  ],
});

function generateOn(target: TestServer): Promise<Response> {
  const request = {
    model: 'local/scripted-model',
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Who gets my key?' }] }],
    tools: {},
  };
  return target.api('/api/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request, requestHash: hashCanonical(request), images: [] }),
  });
}

async function ask(provider: ScriptedProvider): Promise<string | undefined> {
  provider.script({ text: 'An answer.' });
  const events = await collectStreamEvents(await generateOn(server));
  expect(events.at(-1)?.type).toBe('answer-finished');
  return provider.requests.at(-1)?.headers.authorization;
}

const hasKey = (settings: SettingsResponse) => settings.providers.find((entry) => entry.id === 'local')?.hasKey;

describe('keys follow their base URL', () => {
  it('moving the base URL to another origin clears the key, says so, and the new host never receives it', async () => {
    expect(hasKey(await put(local(`${trusted.url}/v1`, KEY)))).toBe(true);
    expect(await ask(trusted)).toBe(`Bearer ${KEY}`);

    // Another path on the same origin keeps the key.
    const samePlace = await put(local(`${trusted.url}/v2/`));
    expect(samePlace.keysCleared).toEqual([]);
    expect(hasKey(samePlace)).toBe(true);

    const moved = await put(local(`${elsewhere.url}/v1`));
    expect(moved.keysCleared).toEqual(['local']);
    expect(hasKey(moved)).toBe(false);
    expect(await readFile(join(server.home, 'secrets.json'), 'utf8')).not.toContain(KEY);
    expect(String(await ask(elsewhere))).not.toContain(KEY);
    expect(JSON.stringify(elsewhere.requests)).not.toContain(KEY);
    expect(server.logger.lines.join('\n')).not.toContain(KEY);

    // Moving back does not bring it back: it was removed, not hidden.
    expect(hasKey(await put(local(`${trusted.url}/v1`)))).toBe(false);
  });

  it('a new key sent with the new base URL is kept and bound to the new origin', async () => {
    await put(local(`${trusted.url}/v1`, KEY));
    const moved = await put(local(`${elsewhere.url}/v1`, 'sk-entered-for-elsewhere-000'));
    expect(moved.keysCleared).toEqual([]);
    expect(hasKey(moved)).toBe(true);
    expect(await ask(elsewhere)).toBe('Bearer sk-entered-for-elsewhere-000');
    const secrets = JSON.parse(await readFile(join(server.home, 'secrets.json'), 'utf8')) as {
      origins: Record<string, string>;
    };
    expect(secrets.origins.local).toBe(elsewhere.url);
  });

  it('a key whose stored origin no longer matches the settings (edited on disk) is never sent', async () => {
    const first = await startTestServer();
    const home = first.home;
    const putFirst = (body: unknown) =>
      first.api('/api/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await putFirst(local(`${trusted.url}/v1`, KEY))).status).toBe(200);
    await first.close();
    const file = join(home, 'settings.json');
    const settings = JSON.parse(await readFile(file, 'utf8')) as { providers: { id: string; baseUrl: string }[] };
    settings.providers.find((entry) => entry.id === 'local')!.baseUrl = `${elsewhere.url}/v1`;
    await writeFile(file, JSON.stringify(settings));
    const second = await startTestServer({ home });
    try {
      const listed = (await (await second.api('/api/settings')).json()) as SettingsResponse;
      expect(hasKey(listed)).toBe(false);
      // A local server needs no key, so the request goes out: without the key.
      elsewhere.script({ text: 'An answer.' });
      await collectStreamEvents(await generateOn(second));
      expect(elsewhere.requests).toHaveLength(1);
      expect(JSON.stringify(elsewhere.requests)).not.toContain(KEY);
    } finally {
      await second.dispose();
    }
  });

  it('a key stored before keys were bound is bound at start to the origin its provider has then', async () => {
    const first = await startTestServer();
    const home = first.home;
    const putFirst = (body: unknown) =>
      first.api('/api/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await putFirst(local(`${trusted.url}/v1`, KEY))).status).toBe(200);
    await first.close();
    await writeFile(join(home, 'secrets.json'), JSON.stringify({ version: 1, keys: { local: KEY } }));
    const restarted = await startTestServer({ home });
    try {
      const stored = JSON.parse(await readFile(join(home, 'secrets.json'), 'utf8')) as {
        origins: Record<string, string>;
      };
      expect(stored.origins).toEqual({ local: trusted.url });
      const listed = (await (await restarted.api('/api/settings')).json()) as SettingsResponse;
      expect(hasKey(listed)).toBe(true);
    } finally {
      await restarted.dispose();
    }
  });
});
