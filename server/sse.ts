import type { Response } from 'express';
import type { StreamEvent } from '../protocol/index.ts';

/**
 * Start a `text/event-stream` response; each event is one JSON `data:` line.
 * Events written in the same tick leave in one write (held until the next tick): a provider chunk
 * that holds many tokens costs one syscall, while a lone first token still leaves at once.
 */
export function openEventStream<Event = StreamEvent>(
  response: Response,
  /**
   * `tick` (a single answer): held until the next tick, so a lone first token leaves at once. `turn` (a set's
   * stream, many answers interleaved): held until the event loop's next turn, so the chunks of every answer that
   * arrived in the same turn leave in one write — one syscall instead of one per answer per chunk.
   */
  flush: 'tick' | 'turn' = 'tick',
): {
  send(event: Event): void;
  comment(text: string): void;
  end(): void;
} {
  response.status(200);
  response.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  // No flushHeaders(): the first event goes out in the same packet as the headers.
  // Small writes should leave at once: first-token latency matters more than packet count.
  response.socket?.setNoDelay(true);
  // What was sent since the last flush, written as one string: one chunk on the wire and one syscall, however many
  // events (a set's answers each send theirs).
  let pending = '';
  const flushNow = () => {
    const text = pending;
    pending = '';
    if (text && !response.writableEnded) response.write(text);
  };
  const write = (text: string) => {
    if (response.writableEnded) return;
    if (pending === '') {
      if (flush === 'tick') process.nextTick(flushNow);
      else setImmediate(flushNow);
    }
    pending += text;
  };
  return {
    send(event) {
      write(`data: ${JSON.stringify(event)}\n\n`);
    },
    comment(text) {
      write(`: ${text}\n\n`);
    },
    end() {
      flushNow();
      if (!response.writableEnded) response.end();
    },
  };
}

/** Aborts when the client goes away before the stream finished (Stop in the app closes the request). */
export function abortOnClientClose(response: Response): AbortController {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort(new DOMException('The client closed the request.', 'AbortError'));
  });
  return controller;
}
