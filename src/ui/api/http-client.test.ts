import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelsResponseSchema } from '../../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { ApiClientError } from './api-error.ts';
import { createHttpClient, jsonInit } from './http-client.ts';

/** The renderer's one HTTP client against the real server on loopback (and a closed one's loopback port). */
let server: TestServer;
/** The origin of a server that has been closed: nothing listens there any more. */
let closedOrigin = '';
beforeAll(async () => {
  server = await startTestServer();
  const closed = await startTestServer();
  closedOrigin = closed.origin;
  await closed.dispose();
});
afterAll(async () => {
  await server?.dispose();
});

const failure = async (promise: Promise<unknown>): Promise<ApiClientError> => {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiClientError);
  return error as ApiClientError;
};

describe('the HTTP client', () => {
  it('carries the launch token: with it the server answers, without it the coded refusal comes back', async () => {
    const models = await createHttpClient({ baseUrl: server.origin, token: server.token }).json(
      '/api/models',
      ModelsResponseSchema,
    );
    expect(models.models.some((model) => model.id === 'offline/receipt')).toBe(true);

    const refused = await failure(
      createHttpClient({ baseUrl: server.origin }).json('/api/models', ModelsResponseSchema),
    );
    expect(refused).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('a server it cannot reach is one coded network error; a request the caller stopped is aborted', async () => {
    const unreachable = createHttpClient({ baseUrl: closedOrigin, token: 'x' });
    const network = await failure(unreachable.json('/api/models', ModelsResponseSchema));
    expect(network.code).toBe('network');
    expect(network.message).toMatch(/^Could not reach the local server \(.+\)\.$/);

    const controller = new AbortController();
    controller.abort();
    const client = createHttpClient({ baseUrl: server.origin, token: server.token });
    expect((await failure(client.send('/api/models', { signal: controller.signal }))).code).toBe('aborted');
  });

  it('a stream the server refuses before it starts is its coded error, not an empty stream', async () => {
    const client = createHttpClient({ baseUrl: server.origin, token: server.token });
    const events = client.events('/api/generate', jsonInit('POST', { request: 'not a request' }));
    const refused = await failure(events.next());
    expect(refused.code).toBe('invalid-body');
    expect(refused.status).toBe(400);
  });
});
