import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/index.ts';
import { createLanguageModel } from './create-language-model.ts';
import type { ProviderConfig } from './provider-config.ts';
import { providerFetch } from './provider-fetch.ts';
import { streamAnswer } from './stream-answer.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
});

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  port: number;
}

/** A bare HTTP server on loopback: records every request (and the client port it came from) and answers with `reply`. */
async function serve(reply: (response: ServerResponse, seen: Seen) => void) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const entry = {
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(parts).toString('utf8'),
        port: request.socket.remotePort ?? 0,
      };
      seen.push(entry);
      reply(response, entry);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const SSE = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'Decoded ' } }] },
  { choices: [{ index: 0, delta: { content: 'answer.' }, finish_reason: 'stop' }] },
]
  .map(
    (chunk) =>
      `data: ${JSON.stringify({ id: 'x', created: 1, model: 'm', object: 'chat.completion.chunk', ...chunk })}\n\n`,
  )
  .join('')
  .concat('data: [DONE]\n\n');

function model(baseUrl: string) {
  const config = { id: 'local', kind: 'openai-compatible', baseUrl, apiKey: 'sk-fetch-0123456789', models: ['m'] };
  return createLanguageModel({ ...config, enabled: true } as ProviderConfig, 'm');
}

async function ask(baseUrl: string): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of streamAnswer({
    model: model(baseUrl),
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello?' }] }],
    abortSignal: new AbortController().signal,
  }))
    events.push(event);
  return events;
}

describe('providerFetch, the model providers’ HTTP client', () => {
  it('sends the JSON body with its length and decodes a compressed event stream', async () => {
    const provider = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      response.end(gzipSync(SSE));
    });
    const events = await ask(`${provider.url}/v1`);
    expect(events.filter((event) => event.type === 'text-delta').map((event) => event.delta)).toEqual([
      'Decoded ',
      'answer.',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'answer-finished', finishReason: 'stop' });
    const [request] = provider.seen;
    expect(request!.url).toBe('/v1/chat/completions');
    expect(Number(request!.headers['content-length'])).toBe(Buffer.byteLength(request!.body));
    expect(JSON.parse(request!.body)).toMatchObject({ model: 'm', stream: true });
  });

  it('keeps its connections: sixteen answers, eight at a time, open at most eight', async () => {
    const provider = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(SSE);
    });
    for (let round = 0; round < 2; round += 1)
      await Promise.all(Array.from({ length: 8 }, () => ask(`${provider.url}/v1`)));
    expect(provider.seen).toHaveLength(16);
    expect(new Set(provider.seen.map((request) => request.port)).size).toBeLessThanOrEqual(8);
  });

  it('never follows a redirect, so the key cannot reach another origin', async () => {
    const elsewhere = await serve((response) => response.end('{}'));
    const provider = await serve((response) => {
      response.writeHead(307, { location: `${elsewhere.url}/v1/chat/completions` });
      response.end();
    });
    const events = await ask(`${provider.url}/v1`);
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'provider-error' })]);
    expect((events[0] as { message: string }).message).toContain('HTTP 307');
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = await serve(() => undefined);
    servers.pop()!.close();
    const events = await ask(`${closed.url}/v1`);
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'network' })]);
  });

  it('rejects at once for a signal already stopped, and errors the body of a stopped answer', async () => {
    const provider = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(SSE.slice(0, 40));
    });
    const stopped = new AbortController();
    stopped.abort();
    await expect(providerFetch(`${provider.url}/x`, { signal: stopped.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    const controller = new AbortController();
    const response = await providerFetch(`${provider.url}/x`, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers a status no Response can carry with a failure, not a crash of the server', async () => {
    const raw = createTcpServer((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 600 Odd\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}')),
    );
    servers.push(raw as unknown as Server);
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const events = await ask(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`);
    expect(events).toEqual([expect.objectContaining({ type: 'answer-failed', code: 'provider-error' })]);
  });

  it('lets a set’s answers share one stop signal without a listener warning', async () => {
    const provider = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(SSE);
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const signal = new AbortController().signal;
      const calls = Array.from({ length: 16 }, () =>
        providerFetch(`${provider.url}/v1/chat/completions`, { method: 'POST', body: '{}', signal }).then((response) =>
          response.text(),
        ),
      );
      expect(await Promise.all(calls)).toHaveLength(16);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});
