import { afterEach, describe, expect, it, vi } from 'vitest';
import { readServerSentEvents, type UnreadableEvent } from './read-server-sent-events.ts';

/** A byte stream delivered in the given pieces (cut wherever the test says). */
function streamOf(pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, problems: UnreadableEvent[] = []) {
  const events = [];
  for await (const event of readServerSentEvents(stream, { onUnreadableEvent: (problem) => problems.push(problem) }))
    events.push(event);
  return events;
}

const hel = { type: 'text-delta', delta: 'Hel' };
const lo = { type: 'text-delta', delta: 'lo' };
const finished = { type: 'answer-finished', finishReason: 'stop', usage: null };

describe('readServerSentEvents', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

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
    expect(await collect(streamOf(pieces))).toEqual([hel, { type: 'text-delta', delta: 'lo ✓' }, finished]);
  });

  it('reads events whose lines end in a bare CR, and a CRLF cut between its CR and LF', async () => {
    const crOnly = 'data: {"type":"text-delta","delta":"Hel"}\r\rdata: {"type":"text-delta","delta":"lo"}\r\r';
    expect(await collect(streamOf([crOnly]))).toEqual([hel, lo]);
    const cutCrlf = [
      'data: {"type":"text-delta","delta":"Hel"}\r',
      '\n\r',
      '\ndata: {"type":"text-delta","delta":"lo"}\r\n\r\n',
    ];
    expect(await collect(streamOf(cutCrlf))).toEqual([hel, lo]);
  });

  it('joins a payload spread over several data lines', async () => {
    expect(await collect(streamOf(['data: {"type":"text-delta",\ndata: "delta":"Hel"}\n\n']))).toEqual([hel]);
  });

  it('reports an event that is not JSON or not a stream event, and keeps reading after it', async () => {
    const problems: UnreadableEvent[] = [];
    const events = await collect(
      streamOf([
        'data: {"type":"text-delta","delta":"Hel"}\n\n',
        'data: {"type":"text-delta","delta":\n\n',
        'data: {"type":"unknown-thing"}\n\n',
        'data: {"type":"text-delta","delta":"lo"}\n\n',
        'data: {"type":"answer-finished","finishReason":"stop","usage":null}\n\n',
      ]),
      problems,
    );
    expect(events).toEqual([hel, lo, finished]);
    expect(problems).toEqual([
      { reason: 'not-json', excerpt: '{"type":"text-delta","delta":' },
      { reason: 'not-a-stream-event', excerpt: '{"type":"unknown-thing"}' },
    ]);
  });

  it('without a listener, an unreadable event is a console warning, not a failure', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const events = [];
    for await (const event of readServerSentEvents(
      streamOf(['data: nope\n\n', 'data: {"type":"text-delta","delta":"lo"}\n\n']),
    ))
      events.push(event);
    expect(events).toEqual([lo]);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]?.[0])).toContain('not-json');
  });
});
