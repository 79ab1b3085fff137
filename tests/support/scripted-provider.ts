import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  anthropicToolUseBlocks,
  anthropicToolUseEvents,
  openaiToolCallDeltas,
  openaiToolCalls,
  toolCallsOf,
  type ScriptedToolCall,
} from './scripted-tool-calls.ts';

export type { ScriptedToolCall } from './scripted-tool-calls.ts';

/**
 * A scripted model provider on 127.0.0.1 for tests and benchmarks. It speaks enough of two wire
 * protocols for the real AI SDK clients:
 *   - OpenAI chat completions  POST …/chat/completions (SSE `data:` chunks, then `[DONE]`)
 *   - Anthropic messages       POST …/messages        (SSE `event:` + `data:` pairs)
 * A reply may end in tool calls (`toolCalls`), in either wire format, streamed or not, so the AI SDK's tool loop
 * runs (and Anthropic's structured output, which answers through a forced `json` tool, is exercised).
 * Each request takes the next scripted reply (or the default); every request is recorded with its
 * body and whether the client aborted it.
 */
export interface ScriptedReply {
  /** The answer text, streamed in `chunkSize` pieces unless `chunks` is given. */
  text?: string;
  chunks?: string[];
  chunkSize?: number;
  /** Delay before the first byte of the answer, and between chunks. */
  firstDelayMs?: number;
  chunkDelayMs?: number;
  /** Answer with this HTTP error status (and provider-shaped error body) instead. */
  status?: number;
  errorMessage?: string;
  errorCode?: string;
  /** Headers sent with an error status (e.g. `Retry-After` on a 429). */
  headers?: Record<string, string>;
  /** Drop the connection without answering (a network failure). */
  drop?: boolean;
  /** Send the headers and first chunk, then never finish (until the client goes away). */
  hang?: boolean;
  usage?: { input: number; output: number };
  /** After the text, call these tools (OpenAI `tool_calls` / Anthropic `tool_use`); the turn ends for them. */
  toolCalls?: ScriptedToolCall[];
}

export interface RecordedRequest {
  protocol: 'openai' | 'anthropic' | 'other';
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  aborted: boolean;
  finished: boolean;
  /** `performance.now()` when the request arrived and when its response ended (null until then): provider time. */
  receivedAt: number;
  endedAt: number | null;
}

export interface ScriptedProvider {
  /** e.g. `http://127.0.0.1:PORT` (OpenAI base: `${url}/v1`, Anthropic base: `${url}/v1`). */
  url: string;
  requests: RecordedRequest[];
  script(...replies: ScriptedReply[]): void;
  setDefault(reply: ScriptedReply): void;
  /** Replies by requested model id, used when nothing is scripted (e.g. a long answer for benchmarks). */
  byModel: Record<string, ScriptedReply>;
  /** A reply computed from the request body, used when nothing is queued (e.g. a scripted judge). */
  replyFor: ((body: unknown) => ScriptedReply | null) | null;
  /** Models listed at `GET /api/tags` (so the provider can stand in for a local Ollama). */
  ollamaModels: string[];
  /** Resolves when the n-th request (1-based) has been received. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves when request `index` (0-based) has ended, by finishing or by the client aborting. */
  waitForEnd(index: number, timeoutMs?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function chunksOf(reply: ScriptedReply): string[] {
  if (reply.chunks) return reply.chunks;
  const text = reply.text ?? '';
  const size = reply.chunkSize ?? 8;
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function errorBody(protocol: 'openai' | 'anthropic', reply: ScriptedReply): string {
  const status = reply.status ?? 500;
  const message = reply.errorMessage ?? `scripted error ${status}`;
  if (protocol === 'anthropic') {
    const type =
      status === 401
        ? 'authentication_error'
        : status === 429
          ? 'rate_limit_error'
          : status === 404
            ? 'not_found_error'
            : status === 400
              ? 'invalid_request_error'
              : 'api_error';
    return JSON.stringify({ type: 'error', error: { type, message } });
  }
  return JSON.stringify({
    error: { message, type: 'invalid_request_error', code: reply.errorCode ?? null, param: null },
  });
}

export async function startScriptedProvider(): Promise<ScriptedProvider> {
  const queue: ScriptedReply[] = [];
  let fallback: ScriptedReply = { text: 'Hello from the scripted provider.' };
  const requests: RecordedRequest[] = [];
  const arrivalWaiters: (() => void)[] = [];
  const endWaiters = new Map<number, (() => void)[]>();
  const sockets = new Set<import('node:net').Socket>();

  const notifyEnd = (index: number) => {
    for (const resolve of endWaiters.get(index) ?? []) resolve();
    endWaiters.delete(index);
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    const text = await readBody(request);
    const path = request.url ?? '';
    const protocol = path.endsWith('/chat/completions') ? 'openai' : path.endsWith('/messages') ? 'anthropic' : 'other';
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const record: RecordedRequest = {
      protocol,
      path,
      headers: request.headers,
      body,
      aborted: false,
      finished: false,
      receivedAt,
      endedAt: null,
    };
    const index = requests.push(record) - 1;
    for (const resolve of arrivalWaiters.splice(0)) resolve();
    response.on('close', () => {
      record.endedAt = performance.now();
      if (!response.writableFinished) record.aborted = true;
      else record.finished = true;
      notifyEnd(index);
    });
    if (protocol === 'other' && request.method === 'GET' && path === '/api/tags') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ models: provider.ollamaModels.map((name) => ({ name, model: name, size: 1 })) }));
      return;
    }
    if (protocol === 'other') {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'no such route' } }));
      return;
    }
    const bodyModel = (body as { model?: unknown } | null)?.model;
    const requestedModel = typeof bodyModel === 'string' ? bodyModel : '';
    const reply =
      queue.shift() ??
      provider.replyFor?.(body) ??
      (Object.hasOwn(provider.byModel, requestedModel) ? provider.byModel[requestedModel]! : fallback);
    if (reply.firstDelayMs) await sleep(reply.firstDelayMs);
    if (reply.drop) return void request.socket.destroy();
    if (reply.status && reply.status >= 400) {
      response
        .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
        .end(errorBody(protocol, reply));
      return;
    }
    const stream = (body as { stream?: boolean } | null)?.stream === true;
    const pieces = chunksOf(reply);
    const usage = reply.usage ?? { input: 11, output: pieces.length };
    if (!stream) {
      const full = pieces.join('');
      const calls = toolCallsOf(reply);
      const json =
        protocol === 'openai'
          ? {
              id: 'chatcmpl-scripted',
              object: 'chat.completion',
              created: 0,
              model: (body as { model?: string }).model,
              choices: [
                {
                  index: 0,
                  message: {
                    role: 'assistant',
                    content: full,
                    ...(calls.length > 0 && { tool_calls: openaiToolCalls(calls) }),
                  },
                  finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
                },
              ],
              usage: {
                prompt_tokens: usage.input,
                completion_tokens: usage.output,
                total_tokens: usage.input + usage.output,
              },
            }
          : {
              id: 'msg_scripted',
              type: 'message',
              role: 'assistant',
              model: (body as { model?: string }).model,
              content: [
                ...(full === '' && calls.length > 0 ? [] : [{ type: 'text', text: full }]),
                ...anthropicToolUseBlocks(calls),
              ],
              stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: usage.input, output_tokens: usage.output },
            };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.socket?.setNoDelay(true);
    const send = (event: string | null, data: unknown) => {
      if (response.writableEnded || response.destroyed) return;
      response.write(
        `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
      );
    };
    const model = (body as { model?: string }).model ?? 'scripted';
    if (protocol === 'openai') {
      const chunk = (delta: object, finish: string | null = null) =>
        send(null, {
          id: 'chatcmpl-scripted',
          object: 'chat.completion.chunk',
          created: 0,
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      chunk({ role: 'assistant', content: '' });
      for (const [position, piece] of pieces.entries()) {
        if (response.destroyed) return;
        chunk({ content: piece });
        if (reply.hang && position === 0) return;
        if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      }
      if (reply.hang) return;
      const calls = toolCallsOf(reply);
      for (const delta of openaiToolCallDeltas(calls)) chunk(delta);
      chunk({}, calls.length > 0 ? 'tool_calls' : 'stop');
      send(null, {
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: 0,
        model,
        choices: [],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      });
      send(null, '[DONE]');
      response.end();
      return;
    }
    send('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_scripted',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    });
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    for (const [position, piece] of pieces.entries()) {
      if (response.destroyed) return;
      send('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: piece },
      });
      if (reply.hang && position === 0) return;
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    }
    if (reply.hang) return;
    send('content_block_stop', { type: 'content_block_stop', index: 0 });
    const calls = toolCallsOf(reply);
    for (const [event, data] of anthropicToolUseEvents(calls, 1)) send(event, data);
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output },
    });
    send('message_stop', { type: 'message_stop' });
    response.end();
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const provider: ScriptedProvider = {
    ollamaModels: [],
    byModel: {},
    replyFor: null,
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => queue.push(...replies),
    setDefault: (reply) => {
      fallback = reply;
    },
    waitForRequests: (count, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${requests.length} of ${count} requests arrived`)),
          timeoutMs,
        );
        const check = () => {
          if (requests.length >= count) {
            clearTimeout(timer);
            resolve();
          } else arrivalWaiters.push(check);
        };
        check();
      }),
    waitForEnd: (index, timeoutMs = 5000) =>
      new Promise<RecordedRequest>((resolve, reject) => {
        const record = requests[index];
        if (record && (record.aborted || record.finished)) return resolve(record);
        const timer = setTimeout(() => reject(new Error(`request ${index} did not end`)), timeoutMs);
        const list = endWaiters.get(index) ?? [];
        list.push(() => {
          clearTimeout(timer);
          resolve(requests[index]!);
        });
        endWaiters.set(index, list);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return provider;
}
