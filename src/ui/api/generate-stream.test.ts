import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, compile, emptyGraph, applyChange } from '../../core/index.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { streamGenerate } from './generate-stream.ts';

describe('streamGenerate against the real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('the server accepts the client hash and streams the receipt; a wrong hash is refused', async () => {
    const created = applyChange(
      emptyGraph({ id: 'c', name: 'c', workingDirectory: null, createdAt: 1 }),
      { type: 'add-node', node: { id: 'q', kind: 'question', question: 'Why?' } },
      { now: 2, newId: () => 'x' },
    );
    if (!created.ok) throw new Error(created.error.message);
    const built = buildRequest(compile(created.value.graph, 'q'), { model: 'offline/receipt' });
    const options = { baseUrl: server.origin, token: server.token };
    const events = [];
    for await (const event of streamGenerate(
      { request: built.request, requestHash: built.requestHash, images: [] },
      new AbortController().signal,
      options,
    ))
      events.push(event);
    expect(events[0]).toEqual({ type: 'request-accepted', requestHash: built.requestHash });
    expect(events.at(-1)?.type).toBe('answer-finished');
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => (event as { delta: string }).delta)
        .join(''),
    ).toContain(built.requestHash);

    const refused = [];
    try {
      for await (const event of streamGenerate(
        { request: built.request, requestHash: '0'.repeat(64), images: [] },
        new AbortController().signal,
        options,
      ))
        refused.push(event);
    } catch (error) {
      refused.push({ type: 'thrown', code: (error as { code: string }).code });
    }
    expect(JSON.stringify(refused)).toContain('hash-mismatch');
  });
});
