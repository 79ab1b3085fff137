import { describe, expect, it } from 'vitest';
import type { AnswerFailedEvent, SetStreamEvent, StreamEvent } from '../../../protocol/index.ts';
import { splitSetStream } from './split-set-stream.ts';

const HASH = 'a'.repeat(64);

async function* source(events: SetStreamEvent[], failWith?: Error): AsyncGenerator<SetStreamEvent> {
  for (const event of events) {
    await Promise.resolve();
    yield event;
  }
  if (failWith) throw failWith;
}

async function read(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: null };
  } catch (error) {
    return { events, error };
  }
}

describe('splitSetStream (issue 31)', () => {
  it('gives each answer its own events in order, however they interleave, and a slow reader holds no one back', async () => {
    const events: SetStreamEvent[] = [
      { index: 1, event: { type: 'request-accepted', requestHash: HASH } },
      { index: 0, event: { type: 'request-accepted', requestHash: HASH } },
      { index: 1, event: { type: 'text-delta', delta: 'B1' } },
      { index: 0, event: { type: 'text-delta', delta: 'A1' } },
      { index: 1, event: { type: 'answer-finished', finishReason: 'stop', usage: null } },
      { index: 0, event: { type: 'text-delta', delta: 'A2' } },
      { index: 0, event: { type: 'answer-finished', finishReason: 'stop', usage: null } },
    ];
    const refusals: AnswerFailedEvent[] = [];
    const [first, second] = splitSetStream(source(events), 2, (event) => refusals.push(event));
    // The second answer is read to its end before anyone reads the first.
    const secondRead = await read(second!);
    expect(secondRead.events.map((event) => event.type)).toEqual(['request-accepted', 'text-delta', 'answer-finished']);
    const firstRead = await read(first!);
    expect(firstRead.events.map((event) => (event.type === 'text-delta' ? event.delta : event.type))).toEqual([
      'request-accepted',
      'A1',
      'A2',
      'answer-finished',
    ]);
    expect(refusals).toEqual([]);
  });

  it('a refusal of the whole set is told once and ends every answer without an acceptance', async () => {
    const refusal: AnswerFailedEvent = { type: 'answer-failed', code: 'hash-mismatch', message: 'changed on its way' };
    const refusals: AnswerFailedEvent[] = [];
    const streams = splitSetStream(source([{ index: null, event: refusal }]), 3, (event) => refusals.push(event));
    const reads = await Promise.all(streams.map(read));
    expect(refusals).toEqual([refusal]);
    expect(reads).toEqual([
      { events: [], error: null },
      { events: [], error: null },
      { events: [], error: null },
    ]);
  });

  it('a call that fails midway is thrown to the first answer still open; the others end, their events kept', async () => {
    const failure = new Error('connection reset');
    const events: SetStreamEvent[] = [
      { index: 0, event: { type: 'request-accepted', requestHash: HASH } },
      { index: 0, event: { type: 'answer-finished', finishReason: 'stop', usage: null } },
      { index: 1, event: { type: 'request-accepted', requestHash: HASH } },
    ];
    const reads = await Promise.all(splitSetStream(source(events, failure), 3, () => undefined).map(read));
    expect(reads[0]).toEqual({ events: [events[0]!.event, events[1]!.event], error: null });
    expect(reads[1]).toEqual({ events: [events[2]!.event], error: failure });
    expect(reads[2]).toEqual({ events: [], error: null });
  });
});
