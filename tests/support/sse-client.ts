import { EventSourceParserStream } from 'eventsource-parser/stream';
import { StreamEventSchema, type StreamEvent } from '../../protocol/stream-events.ts';
import { SetStreamEventSchema, type SetStreamEvent } from '../../protocol/generate-set.ts';

/** Read a `text/event-stream` response body as protocol events; a payload the schema refuses fails the test. */
export async function* readStreamEvents(response: Response): AsyncGenerator<StreamEvent> {
  if (!response.body) return;
  const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const message of messages as unknown as AsyncIterable<{ data: string }>)
    yield StreamEventSchema.parse(JSON.parse(message.data));
}

export async function collectStreamEvents(response: Response): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of readStreamEvents(response)) events.push(event);
  return events;
}

/** Read a `/api/generate-set` stream as its tagged payloads (`{ index, event }`); a bad payload fails the test. */
export async function* readSetStreamEvents(response: Response): AsyncGenerator<SetStreamEvent> {
  if (!response.body) return;
  const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const message of messages as unknown as AsyncIterable<{ data: string }>)
    yield SetStreamEventSchema.parse(JSON.parse(message.data));
}
