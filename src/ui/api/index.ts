// src/ui/api: the typed client of the local server (HTTP contract) and its SSE reader.
export { createApiClient, authorizationHeaders } from './api-client.ts';
export type { ApiClient, ApiClientOptions } from './api-client.ts';
export { streamGenerate } from './generate-stream.ts';
export { readServerSentEvents } from './read-server-sent-events.ts';
export type { ReadServerSentEventsOptions, UnreadableEvent } from './read-server-sent-events.ts';
export { ApiClientError, describeError } from './api-error.ts';
export { createServerEvents, serverEvents } from './server-events.ts';
export type { ServerEvents, ServerEventListener, ServerEventsOptions } from './server-events.ts';
export { agentApi } from './agent-api.ts';
export { readJson } from './api-client.ts';
export type { AgentRuntimes } from './agent-api.ts';
export { createMemoryApi } from './memory-api.ts';
export type { MemoryApi } from './memory-api.ts';
