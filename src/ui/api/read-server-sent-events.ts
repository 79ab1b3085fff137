import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { z } from 'zod';
import { StreamEventSchema, type StreamEvent } from '../../../protocol/index.ts';

/** A `data:` payload the page could not use; the stream goes on without it. */
export interface UnreadableEvent {
  reason: 'not-json' | 'not-a-stream-event';
  /** The start of the payload, for the console. */
  excerpt: string;
}

export interface ReadServerSentEventsOptions {
  /** Told about every unusable event; by default it is written to the console as a warning. */
  onUnreadableEvent?: (problem: UnreadableEvent) => void;
}

function warnUnreadable(problem: UnreadableEvent): void {
  console.warn(`[weft] skipped an unreadable server event (${problem.reason}): ${problem.excerpt}`);
}

function readEvent<Payload>(
  message: EventSourceMessage,
  schema: z.ZodType<Payload>,
): { ok: true; payload: Payload } | { ok: false; problem: UnreadableEvent } {
  const excerpt = message.data.slice(0, 120);
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    return { ok: false, problem: { reason: 'not-json', excerpt } };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { ok: true, payload: parsed.data }
    : { ok: false, problem: { reason: 'not-a-stream-event', excerpt } };
}

/**
 * The stream events of an SSE byte stream, in order. Framing (LF, CR or CRLF line ends, comments,
 * multi-line `data:`, chunks split anywhere) is eventsource-parser's; each payload must be JSON that
 * `protocol/stream-events.ts` accepts, and one that is not is reported and skipped, never thrown.
 */
export function readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  options: ReadServerSentEventsOptions = {},
): AsyncGenerator<StreamEvent> {
  return readServerSentPayloads(body, StreamEventSchema, options);
}

/** The payloads of an SSE byte stream, each checked against `schema` (a set's tagged events, `{ index, event }`). */
export async function* readServerSentPayloads<Payload>(
  body: ReadableStream<Uint8Array>,
  schema: z.ZodType<Payload>,
  options: ReadServerSentEventsOptions = {},
): AsyncGenerator<Payload> {
  const report = options.onUnreadableEvent ?? warnUnreadable;
  const ready: Payload[] = [];
  const parser = createParser({
    onEvent(message) {
      const event = readEvent(message, schema);
      if (event.ok) ready.push(event.payload);
      else report(event.problem);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let last = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      parser.feed(text);
      // The parser holds a final CR in case an LF follows; at the end none will, so close that line.
      if (done && (text || last).endsWith('\r')) parser.feed('\n');
      last = text || last;
      yield* ready.splice(0);
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
