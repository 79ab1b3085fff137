import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../protocol/stream-events.ts';
import { sampleCanvas, startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { createApiClient } from './api-client.ts';
import { createServerEvents } from './server-events.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

function nextEvent(
  events: StreamEvent[],
  predicate: (event: StreamEvent) => boolean,
  timeoutMs = 3000,
): Promise<StreamEvent> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = events.find(predicate);
      if (found) {
        clearInterval(poll);
        resolve(found);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error('no such event'));
      }
    }, 10);
  });
}

describe('server events (GET /api/stream)', () => {
  it('delivers a canvas-changed to every listener over one authenticated connection, even when one listener throws', async () => {
    const options = { baseUrl: server.origin, token: server.token };
    const events = createServerEvents(options);
    const first: StreamEvent[] = [];
    const second: StreamEvent[] = [];
    const stopThrowing = events.subscribe(() => {
      throw new Error('a broken listener');
    });
    const stopFirst = events.subscribe((event) => first.push(event));
    const stopSecond = events.subscribe((event) => second.push(event));
    await events.connected();

    const { revision } = await createApiClient(options).putCanvas(sampleCanvas('streamed-canvas'), {
      baseRevision: null,
    });
    const isChange = (event: StreamEvent) => event.type === 'canvas-changed' && event.id === 'streamed-canvas';
    await nextEvent(first, isChange);
    await nextEvent(second, isChange);

    stopFirst();
    stopThrowing();
    await createApiClient(options).putCanvas(sampleCanvas('streamed-canvas', 'Renamed'), { baseRevision: revision });
    await nextEvent(second, (event) => isChange(event) && second.filter(isChange).length === 2);
    expect(first.filter(isChange)).toHaveLength(1);
    stopSecond();
  });
});
