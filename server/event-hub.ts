import type { StreamEvent } from '../protocol/index.ts';

/** Fan-out of server pushes to every open `/api/stream`. */
export class EventHub {
  private readonly listeners = new Set<(event: StreamEvent) => void>();

  subscribe(listener: (event: StreamEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: StreamEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  get size(): number {
    return this.listeners.size;
  }
}
