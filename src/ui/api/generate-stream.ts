import {
  SetStreamEventSchema,
  type GenerateRequest,
  type GenerateSetRequest,
  type SetStreamEvent,
  type StreamEvent,
} from '../../../protocol/index.ts';
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

/** Issue 31: POST /api/generate-set, a model set's answers in one call; each event is tagged with its dispatch. */
export function streamGenerateSet(
  body: GenerateSetRequest,
  signal: AbortSignal,
  options: ApiClientOptions & ReadServerSentEventsOptions = {},
): AsyncGenerator<SetStreamEvent> {
  return createHttpClient(options).payloads(
    '/api/generate-set',
    SetStreamEventSchema,
    { ...jsonInit('POST', body), signal },
    options,
  );
}
