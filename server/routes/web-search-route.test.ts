import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../protocol/dispatch-request.ts';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { chatToolRequest, hashCanonical } from '../../src/core/index.ts';
import type { ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { startScriptedWebSearch, type ScriptedWebSearch } from '../../tests/support/scripted-web-search.ts';
import { collectStreamEvents } from '../../tests/support/sse-client.ts';
import { startServerWithProvider } from '../../tests/support/server-with-provider.ts';
import type { TestServer } from '../../tests/support/test-server.ts';

// C35 web search: configured in Settings (Brave key or SearXNG URL), run in the tool loop, refused when unset.
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};
let search: ScriptedWebSearch;
const BRAVE_KEY = 'BSA-brave-secret-key-0123456789';

beforeAll(async () => {
  search = await startScriptedWebSearch([
    { title: 'Weft <strong>docs</strong>', url: 'https://example.org/weft', extract: 'A &quot;context&quot; graph.' },
  ]);
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['m'],
    apiKey: 'sk-t-0123456789',
    server: { allowLoopbackTargets: true, braveSearchUrl: search.url },
  }));
});
afterAll(async () => {
  await dispose();
  await search.close();
});
beforeEach(() => {
  search.queries.length = 0;
  provider.requests.length = 0;
});

const put = (body: unknown) =>
  server.api('/api/web-search', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function askWithWebSearch(): Promise<StreamEvent[]> {
  provider.script(
    { toolCalls: [{ id: 'call_w', name: 'web_search', input: { query: 'weft', rows: 2 } }] },
    { text: 'ok' },
  );
  const request: CanonicalRequest = {
    model: 'local/m',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is Weft?' }] }],
    ...chatToolRequest(['web-search']),
  };
  const response = await server.api('/api/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request, requestHash: hashCanonical(request), images: [] }),
  });
  expect(response.status).toBe(200);
  const events = await collectStreamEvents(response);
  expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
  return events;
}
const call = (events: StreamEvent[]) => events.find((event) => event.type === 'tool-call-finished');

describe('web search (C35)', () => {
  it('not configured: the tool answers the model web-search-not-configured and nothing is searched', async () => {
    expect(await (await server.api('/api/web-search')).json()).toEqual({
      provider: null,
      searxngUrl: null,
      hasBraveKey: false,
    });
    expect(call(await askWithWebSearch())).toMatchObject({ status: 'error', code: 'web-search-not-configured' });
    expect(search.queries).toHaveLength(0);
  });

  it('Brave: the key is stored write-only, sent only in Brave’s header, and never in answers, events or logs', async () => {
    const saved = await put({ provider: 'brave', braveKey: BRAVE_KEY });
    expect(saved.status).toBe(200);
    const settings = await saved.text();
    expect(JSON.parse(settings)).toEqual({ provider: 'brave', searxngUrl: null, hasBraveKey: true });
    const events = await askWithWebSearch();
    expect(call(events)).toMatchObject({
      status: 'ok',
      output: '1. Weft docs — https://example.org/weft\n   A "context" graph.',
    });
    expect(search.queries).toEqual([{ api: 'brave', query: 'weft', token: BRAVE_KEY }]);
    for (const text of [
      settings,
      JSON.stringify(events),
      JSON.stringify(provider.requests),
      server.logger.lines.join('\n'),
    ])
      expect(text).not.toContain(BRAVE_KEY);
  });

  it('SearXNG: its JSON API is asked without the Brave key; a bad URL is refused and the setting kept', async () => {
    const refused = await put({ provider: 'searxng', searxngUrl: 'file:///etc/passwd' });
    expect(refused.status).toBe(400);
    expect(await (await server.api('/api/web-search')).json()).toMatchObject({ provider: 'brave' });
    expect((await put({ provider: 'searxng', searxngUrl: `${search.url}/searxng` })).status).toBe(200);
    const events = await askWithWebSearch();
    expect(call(events)).toMatchObject({ status: 'ok', output: expect.stringContaining('https://example.org/weft') });
    expect(search.queries).toEqual([{ api: 'searxng', query: 'weft', token: null }]);
  });

  it('removing the Brave key with Brave chosen leaves web search not configured', async () => {
    expect(await (await put({ provider: 'brave', braveKey: '' })).json()).toMatchObject({ hasBraveKey: false });
    expect(call(await askWithWebSearch())).toMatchObject({ code: 'web-search-not-configured' });
    expect(search.queries).toHaveLength(0);
  });
});
