import type { StreamEvent, GenerateRequest } from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from './http-client.ts';
import type { ReadServerSentEventsOptions } from './read-server-sent-events.ts';

/** POST /api/generate and yield its stream events; aborting the signal closes the request. */
export function streamGenerate(
  body: GenerateRequest,
  signal: AbortSignal,
  options: ApiClientOptions & ReadServerSentEventsOptions = {},
): AsyncGenerator<StreamEvent> {
  return createHttpClient(options).events('/api/generate', { ...jsonInit('POST', body), signal }, options);
}
