import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scriptedAnswer, SCRIPTED_MODEL_NAMES, type PlainMessage, type ScriptedModelName } from './scripted-models.ts';

/**
 * Serves the scripted models as an OpenAI-compatible chat-completions endpoint on 127.0.0.1, so a scripted run
 * goes through the real provider path (AI SDK client, HTTP, SSE) exactly like a real model's.
 */
export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  requestCount(): number;
  close(): Promise<void>;
}

interface ChatBody {
  model?: unknown;
  stream?: unknown;
  messages?: { role?: unknown; content?: unknown }[];
}

function plainMessages(body: ChatBody): PlainMessage[] {
  return (body.messages ?? []).map((message) => ({
    role: String(message.role),
    text:
      typeof message.content === 'string'
        ? message.content
        : Array.isArray(message.content)
          ? (message.content as { type?: string; text?: string }[])
              .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
              .join('\n')
          : '',
  }));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A scripted failure served instead of an answer: an HTTP error with headers, or a dropped connection. */
export type ScriptedFailure = { status: number; headers?: Record<string, string> } | { drop: true };

/**
 * `failures` are served, in order, to the first chat requests (one each) before any answer: a 429 with
 * Retry-After, a 503, a dropped connection — so the retry path is tested over real HTTP.
 */
export async function startScriptedModelServer(
  options: { failures?: readonly ScriptedFailure[] } = {},
): Promise<ScriptedModelServer> {
  let count = 0;
  const failures = [...(options.failures ?? [])];
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const failure = request.url?.endsWith('/chat/completions') ? failures.shift() : undefined;
      if (failure && 'drop' in failure) return void request.socket.destroy();
      if (failure) {
        response.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        return void response.end(JSON.stringify({ error: { message: `scripted HTTP ${failure.status}` } }));
      }
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions'))
        return reply(response, 404, { error: { message: 'not found' } });
      let body: ChatBody;
      try {
        body = JSON.parse(raw) as ChatBody;
      } catch {
        return reply(response, 400, { error: { message: 'the body is not JSON' } });
      }
      const model = String(body.model);
      if (!SCRIPTED_MODEL_NAMES.includes(model as ScriptedModelName))
        return reply(response, 404, { error: { message: `no scripted model "${model}"`, code: 'model_not_found' } });
      count += 1;
      const text = scriptedAnswer(model as ScriptedModelName, plainMessages(body));
      const usage = { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 1, total_tokens: 0 };
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
      if (body.stream !== true) {
        return reply(response, 200, {
          id: 'chatcmpl-scripted',
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        });
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
      const chunk = (delta: object, finish: string | null) =>
        send({
          id: 'chatcmpl-scripted',
          object: 'chat.completion.chunk',
          created: 0,
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      chunk({ role: 'assistant', content: text }, null);
      chunk({}, 'stop');
      send({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 0, model, choices: [], usage });
      response.end('data: [DONE]\n\n');
    })().catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requestCount: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
