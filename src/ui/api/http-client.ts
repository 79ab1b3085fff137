import type { z } from 'zod';
import { ApiErrorSchema, StreamEventSchema, type StreamEvent } from '../../../protocol/index.ts';
import { ApiClientError } from './api-error.ts';
import { readServerSentPayloads, type ReadServerSentEventsOptions } from './read-server-sent-events.ts';

/** In the app: same origin, cookie auth. Tests and tools: an origin and a Bearer token (the launch token). */
export interface ApiClientOptions {
  baseUrl?: string;
  token?: string;
}

export function authorizationHeaders(options: ApiClientOptions): Record<string, string> {
  return options.token ? { authorization: `Bearer ${options.token}` } : {};
}

/** The coded error an error response carries (`{ error: { code, message } }`), else `http-<status>`. */
function errorOf(body: unknown, status: number): ApiClientError {
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) return new ApiClientError(parsed.data.error.code, parsed.data.error.message, status);
  return new ApiClientError('http-' + status, `The server answered ${status}.`, status);
}

/** Reads a JSON response: a coded `ApiClientError` for an error body, a non-JSON answer or an unexpected shape. */
export async function readJson<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiClientError('bad-response', `The server answered ${response.status} without JSON.`, response.status);
  }
  if (!response.ok) throw errorOf(body, response.status);
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiClientError(
      'bad-response',
      `Unexpected response: ${parsed.error.issues[0]?.message ?? ''}`,
      response.status,
    );
  return parsed.data;
}

/** A JSON body: the method, the content type and the encoded value (`undefined` sends no body). */
export function jsonInit(method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

export interface EventStreamOptions extends ReadServerSentEventsOptions {
  onOpen?: () => void;
}

/**
 * The renderer's one way to the local server: every feature folder's typed client (`api-client.ts`, agents,
 * ask-canvas, atlas, memory, recall) and the streams (`/api/generate`, agent turns, asks of the canvas, the page's
 * `/api/stream`) go through it. It adds the launch token (or relies on the same-origin cookie), turns a failed
 * fetch into one coded `network` error (or `aborted` when the caller's signal stopped it) and an error response into
 * the server's coded error. It never retries: the one retry of the renderer is `server-events.ts`'s reconnect.
 */
export interface HttpClient {
  /** The raw response (for streamed records, text, or a 204). */
  send(path: string, init?: RequestInit): Promise<Response>;
  /** A JSON response checked against `schema`. */
  json<T>(path: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T>;
  /**
   * A server-sent event stream, each event checked against `protocol/stream-events.ts`; aborting `init.signal` closes
   * it. `onOpen` is told once the server answered with the stream, before its first event.
   */
  events(path: string, init?: RequestInit, options?: EventStreamOptions): AsyncGenerator<StreamEvent>;
  /** A server-sent event stream whose payloads `schema` checks (a model set's tagged events), as `events`. */
  payloads<T>(path: string, schema: z.ZodType<T>, init?: RequestInit, options?: EventStreamOptions): AsyncGenerator<T>;
}

export function createHttpClient(options: ApiClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? '';
  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    try {
      const headers = { ...authorizationHeaders(options), ...(init.headers as Record<string, string> | undefined) };
      return await fetch(baseUrl + path, { credentials: 'same-origin', ...init, headers });
    } catch (error) {
      if (init.signal?.aborted) throw new ApiClientError('aborted', 'Stopped.');
      throw new ApiClientError('network', `Could not reach the local server (${(error as Error).message}).`);
    }
  }
  async function* payloads<T>(
    path: string,
    schema: z.ZodType<T>,
    init: RequestInit = {},
    readOptions: EventStreamOptions = {},
  ): AsyncGenerator<T> {
    const response = await send(path, {
      ...init,
      headers: { accept: 'text/event-stream', ...(init.headers as Record<string, string> | undefined) },
    });
    if (!response.ok || !response.body) throw errorOf(await response.json().catch(() => null), response.status);
    readOptions.onOpen?.();
    yield* readServerSentPayloads(response.body, schema, readOptions);
  }
  return {
    send,
    json: async (path, schema, init) => readJson(await send(path, init), schema),
    events: (path, init, readOptions) => payloads(path, StreamEventSchema, init, readOptions),
    payloads,
  };
}
