import type { ChainHead, EventRecord } from '../../protocol/index.ts';
import { canonicalJson, eventHash, verifyChain } from '../../src/core/index.ts';
import { nodeHashPort } from '../hash/index.ts';
import { WeftError } from '../../protocol/index.ts';

/**
 * The store's append-only rule (C10): an incoming log keeps every stored event byte-identical (canonical JSON) as
 * its prefix, and each appended event chains onto the one before it. Otherwise `event-log-rewrite`, naming where.
 */
export function assertEventPrefix(
  canvasId: string,
  stored: readonly EventRecord[],
  incoming: readonly EventRecord[],
): void {
  for (let index = 0; index < stored.length; index += 1) {
    const kept = incoming[index];
    if (kept === undefined) {
      const missing = stored.length - incoming.length;
      throw rewrite(canvasId, `${missing} stored event${missing === 1 ? ' is' : 's are'} missing at the end`);
    }
    if (canonicalJson(kept) !== canonicalJson(stored[index])) {
      throw rewrite(canvasId, `event ${index + 1} (id ${stored[index]!.id}) differs from the stored one`);
    }
  }
  for (let index = stored.length; index < incoming.length; index += 1) {
    const event = incoming[index]!;
    const previousHash = index === 0 ? '' : incoming[index - 1]!.hash;
    if (event.prevHash !== previousHash || !hashVerifies(event)) {
      throw rewrite(canvasId, `appended event ${index + 1} (id ${event.id}) does not chain onto the log before it`);
    }
  }
}

function hashVerifies(event: EventRecord): boolean {
  try {
    return eventHash(event, nodeHashPort) === event.hash;
  } catch {
    return false;
  }
}

function rewrite(canvasId: string, what: string): WeftError {
  return new WeftError(
    'event-log-rewrite',
    `The event log of canvas "${canvasId}" is append-only: ${what}. Nothing was written.`,
    409,
  );
}

/**
 * Whether a stored log is still the one the head describes: as long, the same last event, and breaking (if at
 * all) only where it did when the record was created. Returns what differs, or null.
 */
export function differenceFromHead(events: readonly EventRecord[], head: ChainHead): string | null {
  if (events.length < head.eventCount) {
    const missing = head.eventCount - events.length;
    return `${missing} event${missing === 1 ? ' is' : 's are'} missing at the end`;
  }
  if (head.eventCount > 0 && events[head.eventCount - 1]!.hash !== head.lastEventHash) {
    return `event ${head.eventCount} is not the one the head records`;
  }
  const broken = verifyChain(events, undefined, nodeHashPort);
  if (broken !== head.firstBadEvent) {
    return broken === null ? 'a recorded break is gone' : `event ${broken + 1} no longer verifies`;
  }
  return null;
}
