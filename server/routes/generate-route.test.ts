import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../protocol/dispatch-request.ts';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import type { HashPort } from '../../src/core/hash-port.ts';
import { hashCanonical, sha256Hex } from '../../src/core/hashing.ts';
import { nodeHashPort } from '../../runtime/hash/node-hash-port.ts';
import { startScriptedProvider, type ScriptedProvider } from '../../tests/support/scripted-provider.ts';
import { collectStreamEvents, readStreamEvents } from '../../tests/support/sse-client.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
let provider: ScriptedProvider;

const KEY = 'sk-test-generate-0123456789';

beforeAll(async () => {
  provider = await startScriptedProvider();
  server = await startTestServer();
  const base = `${provider.url}/v1`;
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: [
        { id: 'local', kind: 'openai-compatible', baseUrl: base, apiKey: KEY, models: ['scripted-model'] },
        { id: 'anthropic', kind: 'anthropic', baseUrl: base, apiKey: KEY },
        { id: 'openai', kind: 'openai', baseUrl: base, apiKey: KEY },
        { id: 'openrouter', kind: 'openrouter', baseUrl: base, apiKey: KEY },
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

function canonical(model: string, question = 'What is two plus two?'): CanonicalRequest {
  return {
    model,
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'You answer briefly.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Context: arithmetic.' },
          { type: 'text', text: question },
        ],
      },
    ],
    tools: { webSearch: false },
  };
}

function generate(
  request: CanonicalRequest,
  options: { requestHash?: string; images?: unknown[]; signal?: AbortSignal } = {},
) {
  return server.api('/api/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      request,
      requestHash: options.requestHash ?? hashCanonical(request),
      images: options.images ?? [],
    }),
    signal: options.signal,
  });
}

function textOf(events: StreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
}

describe('POST /api/generate', () => {
  it('streams the offline receipt end to end, with the server hash first', async () => {
    const request = canonical('offline/receipt');
    const response = await generate(request);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await collectStreamEvents(response);
    expect(events[0]).toEqual({ type: 'request-accepted', requestHash: hashCanonical(request) });
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(3);
    const text = textOf(events);
    expect(text).toContain('Offline receipt: no model was called');
    expect(text).toContain('Messages: 2');
    expect(text).toContain(`Request hash: ${hashCanonical(request)}`);
    expect(text).toMatch(/1\. system: "You answer briefly\."\n2\. user: "Context: arithmetic\."/);
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished', finishReason: 'stop' });
  });

  it('refuses on hash mismatch without calling the provider', async () => {
    const request = canonical('local/scripted-model');
    const events = await collectStreamEvents(await generate(request, { requestHash: 'f'.repeat(64) }));
    // Nothing was handed over, so nothing is accepted (no commit); the message names both hashes.
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'answer-failed', code: 'hash-mismatch' });
    expect((events[0] as { message: string }).message).toContain(hashCanonical(request).slice(0, 12));
    expect(provider.requests).toHaveLength(0);
  });

  it('hashes only what it hands over: extra fields the client slipped in make a mismatch', async () => {
    const request = canonical('local/scripted-model');
    const tampered = { ...request, messages: [...request.messages], extra: 'ignored by the schema' };
    const events = await collectStreamEvents(await generate(tampered, { requestHash: hashCanonical(tampered) }));
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'hash-mismatch' })]);
    expect(provider.requests).toHaveLength(0);
  });

  it('streams through the real openai-compatible client and hands over exactly the canonical messages', async () => {
    provider.script({ text: 'Four. The sum of two and two is four.', chunkSize: 5 });
    const request = canonical('local/scripted-model');
    const events = await collectStreamEvents(await generate(request));
    expect(events[0]).toEqual({ type: 'request-accepted', requestHash: hashCanonical(request) });
    expect(textOf(events)).toBe('Four. The sum of two and two is four.');
    expect(events.at(-1)).toMatchObject({
      type: 'answer-finished',
      finishReason: 'stop',
      usage: { inputTokens: 11, outputTokens: 8 },
    });
    expect(provider.requests).toHaveLength(1);
    const sent = provider.requests[0]!;
    expect(sent.protocol).toBe('openai');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = sent.body as { model: string; messages: { role: string; content: unknown }[] };
    expect(body.model).toBe('scripted-model');
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(JSON.stringify(body.messages)).toContain('What is two plus two?');
  });

  it('streams through the real Anthropic client', async () => {
    provider.script({ text: 'Claude says four.', chunkSize: 4 });
    const request = canonical('anthropic/claude-haiku-4-5');
    const events = await collectStreamEvents(await generate(request));
    expect(events[0]).toEqual({ type: 'request-accepted', requestHash: hashCanonical(request) });
    expect(textOf(events)).toBe('Claude says four.');
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished' });
    const sent = provider.requests[0]!;
    expect(sent.protocol).toBe('anthropic');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect((sent.body as { system: unknown }).system).toBeDefined();
  });

  it('uses chat completions for OpenAI (not the Responses API)', async () => {
    provider.script({ text: 'OpenAI four.' });
    const events = await collectStreamEvents(await generate(canonical('openai/gpt-4o-mini')));
    expect(textOf(events)).toBe('OpenAI four.');
    expect(provider.requests[0]!.path).toBe('/v1/chat/completions');
  });

  it('routes OpenRouter ids with slashes in the model name', async () => {
    provider.script({ text: 'Routed.' });
    const events = await collectStreamEvents(await generate(canonical('openrouter/anthropic/claude-sonnet-4.5')));
    expect(textOf(events)).toBe('Routed.');
    expect((provider.requests[0]!.body as { model: string }).model).toBe('anthropic/claude-sonnet-4.5');
  });

  it('sends image bytes that match their hash and refuses ones that do not', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
    const hash = sha256Hex(bytes);
    const request: CanonicalRequest = {
      model: 'local/scripted-model',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in the picture?' },
            { type: 'image', hash, mediaType: 'image/png' },
          ],
        },
      ],
      tools: {},
    };
    const image = { hash, mediaType: 'image/png', dataBase64: Buffer.from(bytes).toString('base64') };
    provider.script({ text: 'A picture.' });
    const events = await collectStreamEvents(await generate(request, { images: [image] }));
    expect(textOf(events)).toBe('A picture.');
    expect(JSON.stringify(provider.requests[0]!.body)).toContain(Buffer.from(bytes).toString('base64'));

    const forged = await generate(request, {
      images: [{ ...image, dataBase64: Buffer.from([1, 2, 3]).toString('base64') }],
    });
    expect(forged.status).toBe(400);
    expect((await forged.json()).error.code).toBe('image-mismatch');
    const missing = await generate(request, { images: [] });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe('image-missing');
    expect(provider.requests).toHaveLength(1);
  });

  it('hashes image bytes and the request through its hash port, OpenSSL unless one is injected', async () => {
    expect(server.context.hash).toBe(nodeHashPort);
    const seen: { kind: string; length: number }[] = [];
    const recording: HashPort = {
      sha256Hex(data) {
        seen.push({ kind: typeof data === 'string' ? 'text' : 'bytes', length: data.length });
        return nodeHashPort.sha256Hex(data);
      },
      // The request's canonical JSON streams into an incremental hasher (hashCanonical).
      createSha256: () => {
        seen.push({ kind: 'stream', length: 0 });
        return nodeHashPort.createSha256();
      },
    };
    const other = await startTestServer({ hash: recording });
    try {
      const bytes = new Uint8Array(1024 * 1024).map((_, index) => index & 0xff);
      const hash = sha256Hex(bytes);
      const request: CanonicalRequest = {
        model: 'nowhere/model',
        messages: [{ role: 'user', content: [{ type: 'image', hash, mediaType: 'image/png' }] }],
        tools: {},
      };
      const response = await other.api('/api/generate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          request,
          requestHash: hashCanonical(request),
          images: [{ hash, mediaType: 'image/png', dataBase64: Buffer.from(bytes).toString('base64') }],
        }),
      });
      await response.body?.cancel();
      expect(seen).toContainEqual({ kind: 'bytes', length: bytes.length });
      expect(seen.some((entry) => entry.kind === 'stream')).toBe(true);
    } finally {
      await other.dispose();
    }
  });

  it('aborts the provider request when the client closes the stream', async () => {
    provider.script({
      text: 'This answer never finishes because the provider hangs after one chunk.',
      chunkSize: 10,
      hang: true,
    });
    const controller = new AbortController();
    const response = await generate(canonical('local/scripted-model'), { signal: controller.signal });
    const seen: StreamEvent[] = [];
    try {
      for await (const event of readStreamEvents(response)) {
        seen.push(event);
        if (event.type === 'text-delta') controller.abort();
      }
    } catch {
      /* the aborted body read rejects */
    }
    expect(seen.some((event) => event.type === 'text-delta')).toBe(true);
    const ended = await provider.waitForEnd(0);
    expect(ended.aborted).toBe(true);
  });

  it.each([
    [401, 'bad-key', undefined],
    [403, 'bad-key', undefined],
    [429, 'rate-limit', undefined],
    [404, 'model-missing', undefined],
    [
      400,
      'context-too-long',
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
    ],
    [500, 'provider-error', undefined],
  ] as const)('maps HTTP %i from the openai-compatible provider to %s', async (status, code, message) => {
    provider.script({ status, errorMessage: message });
    const events = await collectStreamEvents(await generate(canonical('local/scripted-model')));
    expect(events[0]!.type).toBe('request-accepted');
    expect(events.at(-1)).toMatchObject({ type: 'answer-failed', code });
    expect(provider.requests).toHaveLength(1);
  });

  it.each([
    [401, 'bad-key'],
    [429, 'rate-limit'],
    [404, 'model-missing'],
  ] as const)('maps HTTP %i from the Anthropic provider to %s', async (status, code) => {
    provider.script({ status });
    const events = await collectStreamEvents(await generate(canonical('anthropic/claude-haiku-4-5')));
    expect(events.at(-1)).toMatchObject({ type: 'answer-failed', code });
  });

  it('maps an unreachable provider to network', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as { port: number }).port;
        probe.close(() => resolve(port));
      });
    });
    await server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providers: [
          { id: 'gone', kind: 'openai-compatible', baseUrl: `http://127.0.0.1:${closedPort}/v1`, models: ['m'] },
        ],
      }),
    });
    const events = await collectStreamEvents(await generate(canonical('gone/m')));
    expect(events.at(-1)).toMatchObject({ type: 'answer-failed', code: 'network' });
  });

  it('answers an unknown model with model-missing and no acceptance: no commit for a request no model got', async () => {
    const events = await collectStreamEvents(await generate(canonical('nobody/model')));
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'model-missing' })]);
    const unknownModel = await collectStreamEvents(await generate(canonical('not-a-model-id')));
    expect(unknownModel).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'model-missing' })]);
    expect(provider.requests).toHaveLength(0);
  });

  it('a hosted provider without a key fails with bad-key before acceptance and before any provider call', async () => {
    const put = await server.api('/api/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providers: [{ id: 'keyless', kind: 'anthropic', baseUrl: `${provider.url}/v1` }],
      }),
    });
    expect(put.status).toBe(200);
    const events = await collectStreamEvents(await generate(canonical('keyless/claude-haiku-4-5')));
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'bad-key' })]);
    expect(provider.requests).toHaveLength(0);
  });

  it('a key the provider rejects (HTTP 401) was handed over: accepted first, then bad-key', async () => {
    provider.script({ status: 401 });
    const request = canonical('local/scripted-model');
    const events = await collectStreamEvents(await generate(request));
    expect(events[0]).toEqual({ type: 'request-accepted', requestHash: hashCanonical(request) });
    expect(events.at(-1)).toMatchObject({ type: 'answer-failed', code: 'bad-key' });
    expect(provider.requests).toHaveLength(1);
  });

  it('refuses an invalid body with a coded 400 before streaming', async () => {
    const response = await server.api('/api/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: { model: '' } }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid-body');
  });
});
