import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderTestResponseSchema } from '../../protocol/index.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

// "Test connection" on a provider row: the real provider path against a scripted model on 127.0.0.1.
let provider: ScriptedProvider;
let server: TestServer;
const KEY = 'sk-test-connection-0123456789';

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer();
  // A port nobody listens on: a wrong base URL.
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
  const base = `${provider.url}/v1`;
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [
        { id: 'local', kind: 'openai-compatible', baseUrl: base, apiKey: KEY, models: ['scripted-model'] },
        { id: 'nowhere', kind: 'openai-compatible', baseUrl: `http://127.0.0.1:${closedPort}/v1`, models: ['m'] },
        { id: 'empty', kind: 'openai-compatible', baseUrl: base },
      ],
    }),
  });
  expect(response.status).toBe(200);
});
afterAll(async () => {
  await server.dispose();
  await provider.close();
});
beforeEach(() => {
  provider.requests.length = 0;
});

async function test(id: string) {
  const response = await server.api(`/api/providers/${id}/test`, { method: 'POST' });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text).not.toContain(KEY);
  return ProviderTestResponseSchema.parse(JSON.parse(text));
}

describe('POST /api/providers/:id/test', () => {
  it("sends one short request to the provider's first model, with its key, and says it answered", async () => {
    provider.script({ text: 'OK.' });
    const result = await test('local');
    expect(result).toMatchObject({ providerId: 'local', ok: true, modelId: 'local/scripted-model' });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('Reply with OK.');
  });

  it('gives the code an ask would get: a refused key, a server that is not there', async () => {
    provider.script({ status: 401, errorMessage: `Incorrect API key provided: ${KEY}` });
    const refused = await test('local');
    expect(refused).toMatchObject({ ok: false, code: 'bad-key' });
    expect(refused.message).not.toContain(KEY);
    const nowhere = await test('nowhere');
    expect(nowhere).toMatchObject({ ok: false, modelId: 'nowhere/m', code: 'network' });
  });

  it('says so when the provider offers no model or is not saved, without calling anything', async () => {
    expect(await test('empty')).toMatchObject({ ok: false, modelId: null, code: 'no-model' });
    expect(await test('ghost')).toMatchObject({ ok: false, code: 'unknown-provider' });
    expect(provider.requests).toHaveLength(0);
  });
});
