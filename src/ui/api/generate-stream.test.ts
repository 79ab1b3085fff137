import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, compile, emptyGraph, applyChange } from '../../core/index.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { readServerSentEvents, streamGenerate } from './generate-stream.ts';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>) {
  const events = [];
  for await (const event of readServerSentEvents(stream)) events.push(event);
  return events;
}

describe('SSE reader', () => {
  it('reassembles events split anywhere across chunks, skips comments, and handles CRLF', async () => {
    const text =
      ': keep-alive\n\ndata: {"type":"text-delta","delta":"Hel"}\n\ndata: {"type":"text-delta","delta":"lo ✓"}\r\n\r\ndata: {"type":"answer-finished","finishReason":"stop","usage":null}\n\n';
    const bytes = new TextEncoder().encode(text);
    // Split inside a multi-byte character and inside the JSON.
    const cut = [7, 30, 61, bytes.indexOf(0xe2) + 1, bytes.length - 3];
    const pieces: Uint8Array[] = [];
    let from = 0;
    for (const at of cut) {
      pieces.push(bytes.slice(from, at));
      from = at;
    }
    pieces.push(bytes.slice(from));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(piece);
        controller.close();
      },
    });
    expect(await collect(stream)).toEqual([
      { type: 'text-delta', delta: 'Hel' },
      { type: 'text-delta', delta: 'lo ✓' },
      { type: 'answer-finished', finishReason: 'stop', usage: null },
    ]);
    expect(await collect(streamOf(['data: {"type":"unknown-thing"}\n\n']))).toEqual([]);
  });
});

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
