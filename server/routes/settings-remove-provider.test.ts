import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

const put = (body: unknown) =>
  server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const local = (id: string, apiKey: string) => ({
  id,
  kind: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKey,
  models: ['m'],
});

describe('PUT /api/settings removeProviders', () => {
  it('removes the provider and its stored key, sends requests to the offline model instead of its default, and leaves the others alone', async () => {
    expect((await put({ providers: [local('gone', 'sk-gone-key'), local('kept', 'sk-kept-key')] })).status).toBe(200);
    expect((await put({ defaultModelId: 'gone/m', judgeModelId: 'kept/m' })).status).toBe(200);

    const response = await put({ removeProviders: ['gone'] });
    expect(response.status).toBe(200);
    const settings = await (await server.api('/api/settings')).json();
    expect(settings.providers.map((entry: { id: string }) => entry.id)).toEqual(['kept']);
    // Not another provider's model: that would move the person's asks elsewhere without their choosing.
    expect(settings.defaultModelId).toBe('offline/receipt');
    expect(settings.judgeModelId).toBe('kept/m');
    const secrets = JSON.parse(await readFile(join(server.home, 'secrets.json'), 'utf8'));
    expect(Object.keys(secrets.keys)).toEqual(['kept']);
    const models = await (await server.api('/api/models')).json();
    expect(models.models.map((model: { id: string }) => model.id)).not.toContain('gone/m');
    expect(models.defaultModelId).toBe('offline/receipt');
  });
});
