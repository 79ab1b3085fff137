import type { StreamEvent } from '../../../protocol/index.ts';
import { createHttpClient, type ApiClientOptions } from './http-client.ts';
import type { ReadServerSentEventsOptions } from './read-server-sent-events.ts';

export type ServerEventListener = (event: StreamEvent) => void;

export interface ServerEvents {
  /** Adds a listener; the first one opens the connection, the last one to leave closes it. */
  subscribe(listener: ServerEventListener): () => void;
  /** Resolves once the stream is connected (tests wait for it before causing events). */
  connected(): Promise<void>;
}

export interface ServerEventsOptions extends ApiClientOptions, ReadServerSentEventsOptions {
  /** Wait before reconnecting after the stream ends or fails; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * One `GET /api/stream` connection for the whole page (canvas sync, Atlas follow…), read with fetch so it
 * carries the same auth as every other request and works outside a browser. Reconnects with backoff.
 */
export function createServerEvents(options: ServerEventsOptions = {}): ServerEvents {
  const listeners = new Set<ServerEventListener>();
  const retryMs = options.retryMs ?? 1000;
  const maxRetryMs = options.maxRetryMs ?? 15_000;
  let controller: AbortController | null = null;
  let onConnected: (() => void) | null = null;
  let connectedPromise: Promise<void> = new Promise((resolve) => (onConnected = resolve));

  const http = createHttpClient(options);

  async function run(signal: AbortSignal): Promise<void> {
    let wait = retryMs;
    while (!signal.aborted) {
      try {
        const onOpen = () => {
          wait = retryMs;
          onConnected?.();
        };
        for await (const event of http.events('/api/stream', { signal }, { ...options, onOpen })) {
          for (const listener of [...listeners]) {
            try {
              listener(event);
            } catch {
              // One listener's failure must not silence the others.
            }
          }
        }
      } catch {
        // Network error, an error response or abort: retry below unless closed.
      }
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, maxRetryMs);
    }
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!controller) {
        controller = new AbortController();
        void run(controller.signal);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && controller) {
          controller.abort();
          controller = null;
          connectedPromise = new Promise((resolve) => (onConnected = resolve));
        }
      };
    },
    connected: () => connectedPromise,
  };
}

/** The page's one connection; components subscribe to it rather than opening their own. */
export const serverEvents: ServerEvents = createServerEvents();
