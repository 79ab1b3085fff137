import type { ChainVerdict, EventRecord } from '../../protocol/index.ts';
import { verifyChain, type ChainAnchor } from './event-log.ts';
import type { HashPort } from './hash-port.ts';

/**
 * Checks a log against the chain head kept beside it (or alone, when none is kept): the first event that
 * does not verify, or how many events are missing at the end. The UI's Verify and `weft verify` both say this
 * (the CLI with OpenSSL's SHA-256 as `hash`: the same digests, several times faster over a long log).
 */
export function chainVerdict(
  events: readonly EventRecord[],
  anchor: ChainAnchor | null,
  hash?: HashPort,
): ChainVerdict {
  const eventCount = events.length;
  const broken = verifyChain(events, anchor ?? undefined, hash);
  if (broken === null) return { status: 'intact', eventCount, anchored: anchor !== null };
  // `verifyChain` reaches the end only when every kept event verifies: the head says there were more.
  if (anchor && broken === eventCount && eventCount < anchor.length)
    return { status: 'missing-at-end', eventCount, missing: anchor.length - eventCount };
  return { status: 'bad-event', eventCount, index: broken, eventId: events[broken]?.id ?? null };
}

/** One sentence for people: "intact", "event 3 (id …) does not verify", "2 events missing at the end". */
export function describeChainVerdict(verdict: ChainVerdict): string {
  switch (verdict.status) {
    case 'intact':
      return verdict.anchored
        ? `Intact: all ${verdict.eventCount} events verify and match the chain head.`
        : `Intact: all ${verdict.eventCount} events verify (no chain head kept for this record yet).`;
    case 'bad-event':
      return `Broken at event ${verdict.index + 1} of ${verdict.eventCount}${
        verdict.eventId ? ` (id ${verdict.eventId})` : ''
      }: it was altered, removed, inserted or reordered.`;
    case 'missing-at-end':
      return `${verdict.missing} event${verdict.missing === 1 ? '' : 's'} missing at the end: the chain head records ${
        verdict.eventCount + verdict.missing
      }, the log holds ${verdict.eventCount}.`;
    case 'head-mismatch':
      return `The ${verdict.eventCount} events verify, but the chain head does not match the anchors journal: ${verdict.detail}.`;
  }
}
