import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { keyOriginWarning } from './key-origin-notice.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const provider = (baseUrl: string, apiKey?: string) => ({
  id: 'local',
  kind: 'openai-compatible' as const,
  baseUrl,
  models: ['m'],
  ...(apiKey ? { apiKey } : {}),
});

describe('Settings says when a key follows no base URL', () => {
  it('a save that moves the base URL to another host says the key was removed', async () => {
    const app = await new TestApp(server, `key-origin-${Math.random()}`).start();
    expect(await app.state.saveSettings({ providers: [provider('http://127.0.0.1:1234/v1', 'sk-local-0001')] })).toBe(
      true,
    );
    expect(app.state.settings?.providers[0]?.hasKey).toBe(true);
    const toastsBefore = app.state.toasts.length;
    expect(await app.state.saveSettings({ providers: [provider('http://127.0.0.1:1234/other')] })).toBe(true);
    expect(app.state.toasts.length).toBe(toastsBefore);

    expect(await app.state.saveSettings({ providers: [provider('http://10.0.0.8:1234/v1')] })).toBe(true);
    expect(app.state.settings?.providers[0]?.hasKey).toBe(false);
    expect(app.lastToast()).toMatchObject({ kind: 'info', code: 'keys-cleared' });
    expect(app.lastToast()?.message).toBe(
      'The key of “local” was removed: a key is kept only for the host it was entered for, and the base URL now points elsewhere. Enter the key again if you trust the new host.',
    );
    await app.close();
  });

  it('warns before saving, naming both hosts, unless a new key is typed or the host stays', () => {
    const draft = {
      kind: 'openai-compatible' as const,
      hasKey: true,
      apiKey: '',
      baseUrl: 'https://models.example.org/v1',
      savedBaseUrl: 'http://127.0.0.1:1234/v1',
    };
    expect(keyOriginWarning(draft)).toBe(
      'The saved key was entered for http://127.0.0.1:1234. Saving with this base URL (https://models.example.org) removes it; enter the key again for the new host.',
    );
    expect(keyOriginWarning({ ...draft, apiKey: 'sk-new' })).toBeNull();
    expect(keyOriginWarning({ ...draft, baseUrl: 'http://127.0.0.1:1234/v2' })).toBeNull();
    expect(keyOriginWarning({ ...draft, baseUrl: '' })).toBeNull();
    expect(keyOriginWarning({ ...draft, hasKey: false })).toBeNull();
    // A hosted provider given a base URL elsewhere than its default endpoint.
    expect(keyOriginWarning({ ...draft, kind: 'openai', savedBaseUrl: null })).toContain('https://api.openai.com');
  });
});
