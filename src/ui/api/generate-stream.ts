import type { StreamEvent, GenerateRequest } from '../../../protocol/index.ts';
import { ApiErrorSchema } from '../../../protocol/index.ts';
import { ApiClientError } from './api-error.ts';
import { authorizationHeaders, type ApiClientOptions } from './api-client.ts';
import { readServerSentEvents, type ReadServerSentEventsOptions } from './read-server-sent-events.ts';

/** POST /api/generate and yield its stream events; aborting the signal closes the request. */
export async function* streamGenerate(
  body: GenerateRequest,
  signal: AbortSignal,
  options: ApiClientOptions & ReadServerSentEventsOptions = {},
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
  yield* readServerSentEvents(response.body, options);
}
