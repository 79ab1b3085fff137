// src/ui/api: the typed client of the local server (HTTP contract) and its SSE reader.
export { createApiClient } from './api-client.ts';
export type { ApiClient } from './api-client.ts';
export { createHttpClient, authorizationHeaders, readJson, jsonInit } from './http-client.ts';
export type { ApiClientOptions, HttpClient } from './http-client.ts';
export { clientHandshake } from './client-handshake.ts';
export type { Acceptance, ClientHandshake } from './client-handshake.ts';
export { streamGenerate, streamGenerateSet } from './generate-stream.ts';
export { readServerSentEvents } from './read-server-sent-events.ts';
export type { ReadServerSentEventsOptions, UnreadableEvent } from './read-server-sent-events.ts';
export { ApiClientError, describeError } from './api-error.ts';
export { createServerEvents, serverEvents } from './server-events.ts';
export type { ServerEvents, ServerEventListener, ServerEventsOptions } from './server-events.ts';
export { agentApi, createAgentApi } from './agent-api.ts';
export type { AgentApi, AgentRuntimes, AgentSandboxState } from './agent-api.ts';
export { createMemoryApi } from './memory-api.ts';
export type { MemoryApi } from './memory-api.ts';
