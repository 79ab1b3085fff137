import { StreamEventSchema, type StreamEvent } from '../../../protocol/stream-events.ts';
import type { GenerateRequest } from '../../../protocol/http-api.ts';
import { ApiErrorSchema } from '../../../protocol/http-api.ts';
import { ApiClientError } from './api-error.ts';
import { authorizationHeaders, type ApiClientOptions } from './api-client.ts';

/** Splits an SSE byte stream into the JSON of each `data:` field, event by event. */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let boundary = buffer.search(/\r?\n\r?\n/);
      while (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
        const data = block
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data) {
          const parsed = StreamEventSchema.safeParse(JSON.parse(data));
          if (parsed.success) yield parsed.data;
        }
        boundary = buffer.search(/\r?\n\r?\n/);
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** POST /api/generate and yield its stream events; aborting the signal closes the request. */
export async function* streamGenerate(
  body: GenerateRequest,
  signal: AbortSignal,
  options: ApiClientOptions = {},
): AsyncGenerator<StreamEvent> {
  let response: Response;
  try {
    response = await fetch((options.baseUrl ?? '') + '/api/generate', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...authorizationHeaders(options) },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw new ApiClientError('aborted', 'Stopped.');
    throw new ApiClientError('network', `Could not reach the local server (${(error as Error).message}).`);
  }
  if (!response.ok || !response.body) {
    const parsed = ApiErrorSchema.safeParse(await response.json().catch(() => null));
    if (parsed.success) throw new ApiClientError(parsed.data.error.code, parsed.data.error.message, response.status);
    throw new ApiClientError('http-' + response.status, `The server answered ${response.status}.`, response.status);
  }
  yield* readServerSentEvents(response.body);
}
