import type { AnswerFailedEvent, SetStreamEvent, StreamEvent } from '../../../protocol/index.ts';

/** One dispatch's events as they arrive, and how its stream ended (an error belongs to the first open one). */
interface Lane {
  events: StreamEvent[];
  ended: boolean;
  error: Error | null;
  wake: (() => void) | null;
}

/**
 * Issue 31: a set's one stream (`/api/generate-set`, events tagged with their dispatch's index) as one stream of
 * `/api/generate` events per dispatch, so each answer is read by the same `receiveAnswer` as a single ask. The set's
 * stream is read as fast as it comes: a slow reader of one answer never holds the others back. A refusal of the
 * whole set (`index: null`) is told once to `onRefused` and ends every answer's stream without an acceptance; a
 * failed call (an error response, a dropped connection) is thrown to the first answer still open, and the others
 * end without an acceptance, so the person hears of it once.
 */
export function splitSetStream(
  source: AsyncIterable<SetStreamEvent>,
  count: number,
  onRefused: (event: AnswerFailedEvent) => void,
): AsyncIterable<StreamEvent>[] {
  const lanes: Lane[] = Array.from({ length: count }, () => ({ events: [], ended: false, error: null, wake: null }));
  const wake = (lane: Lane) => {
    lane.wake?.();
    lane.wake = null;
  };
  const endAll = (error: unknown = null) => {
    let thrown = error === null;
    for (const lane of lanes) {
      if (lane.ended) continue;
      if (!thrown) {
        lane.error = error instanceof Error ? error : new Error('The set’s call failed.', { cause: error });
        thrown = true;
      }
      lane.ended = true;
      wake(lane);
    }
  };
  const pump = async () => {
    for await (const { index, event } of source) {
      if (index === null) {
        if (event.type === 'answer-failed') onRefused(event);
        continue;
      }
      const lane = lanes[index];
      if (!lane || lane.ended) continue;
      lane.events.push(event);
      if (event.type === 'answer-finished' || event.type === 'answer-failed') lane.ended = true;
      wake(lane);
    }
  };
  let started: Promise<void> | null = null;
  const start = () => (started ??= pump().then(() => endAll(), endAll));
  return lanes.map((lane) => ({
    async *[Symbol.asyncIterator]() {
      void start();
      for (;;) {
        if (lane.events.length > 0) {
          yield lane.events.shift()!;
          continue;
        }
        if (lane.ended) {
          if (lane.error !== null) throw lane.error instanceof Error ? lane.error : new Error(String(lane.error));
          return;
        }
        await new Promise<void>((resolve) => (lane.wake = resolve));
      }
    },
  }));
}
