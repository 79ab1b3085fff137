import { z } from 'zod';
import { EventRecordSchema, type EventRecord } from './event-record.ts';

/**
 * An event as a version-3 `.weft.json` stores it: `prevHash` is left out when it is the previous event's `hash`
 * ('' for the first), which in an intact log is every time. A `prevHash` that does not follow (a log that starts
 * mid-chain, or a broken link) is kept as it was, so verifying the chain sees exactly what it saw before.
 */
export const StoredEventSchema = EventRecordSchema.extend({ prevHash: z.string().optional() });
export type StoredEvent = z.infer<typeof StoredEventSchema>;

/** The events as the log has them: each left-out `prevHash` is the hash of the event before it. */
export function chainedEvents(events: readonly StoredEvent[]): EventRecord[] {
  let previousHash = '';
  return events.map((event) => {
    const chained = event.prevHash === undefined ? { ...event, prevHash: previousHash } : (event as EventRecord);
    previousHash = event.hash;
    return chained;
  });
}

/** The events as a document stores them: every `prevHash` that `chainedEvents` gives back is left out. */
export function storedEvents(events: readonly EventRecord[]): StoredEvent[] {
  let previousHash = '';
  return events.map((event) => {
    const follows = event.prevHash === previousHash;
    previousHash = event.hash;
    if (!follows) return event;
    const { prevHash: _prevHash, ...rest } = event;
    return rest;
  });
}
