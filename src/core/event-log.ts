import type { EventMeta, EventRecord } from '../../protocol/index.ts';
import { eventCanonicalJson } from './event-canonical-json.ts';
import type { HashPort } from './hash-port.ts';
import { sha256Hex } from './hashing.ts';
import { isoTime } from './iso-time.ts';

/** What a caller says happened; `appendEvent` adds id, time and the chain hashes. */
export interface EventDraft {
  op: string;
  objectId: string;
  /** Light metadata only (ids, counts, kinds, hashes) — never text content. */
  meta: EventMeta;
}

export interface EventStamp {
  now: number;
  newId: () => string;
  /** SHA-256 for the chain hash; the JavaScript port when absent. */
  hash?: HashPort;
}

/** The hash covers every field but itself, so altering any field breaks the chain. */
export function eventHash(event: Omit<EventRecord, 'hash'>, hash?: HashPort): string {
  return sha256Hex(eventCanonicalJson(event), hash);
}

/** Returns the new record; the log itself is never trimmed or rewritten. */
export function appendEvent(log: readonly EventRecord[], draft: EventDraft, stamp: EventStamp): EventRecord {
  const previous = log[log.length - 1];
  const partial = {
    id: stamp.newId(),
    at: stamp.now,
    op: draft.op,
    objectId: draft.objectId,
    meta: draft.meta,
    prevHash: previous ? previous.hash : '',
  };
  return { ...partial, hash: eventHash(partial, stamp.hash) };
}

/** A trusted note of the log's tip kept elsewhere, so dropping trailing events is detectable too. */
export interface ChainAnchor {
  length: number;
  headHash: string;
}

/**
 * Returns the index of the first event that does not verify, or null when the chain is intact.
 * Alteration breaks that event's hash; removal, insertion and reordering break the next
 * event's `prevHash`. Removing events from the end is only visible against an `anchor`
 * (then the returned index is where the anchored log diverges, or `events.length`).
 */
export function verifyChain(events: readonly EventRecord[], anchor?: ChainAnchor, hash?: HashPort): number | null {
  let previousHash = '';
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index]!;
    if (event.prevHash !== previousHash) return index;
    if (!hashMatches(event, hash)) return index;
    previousHash = event.hash;
  }
  if (anchor) {
    if (events.length < anchor.length) return events.length;
    const atAnchor = anchor.length === 0 ? '' : events[anchor.length - 1]!.hash;
    if (atAnchor !== anchor.headHash) return Math.max(0, anchor.length - 1);
  }
  return null;
}

/** A crafted event can hold what has no canonical form (a lone surrogate): that is a bad event, not a crash. */
function hashMatches(event: EventRecord, hash: HashPort | undefined): boolean {
  try {
    return eventHash(event, hash) === event.hash;
  } catch {
    return false;
  }
}

export function chainAnchor(events: readonly EventRecord[]): ChainAnchor {
  return { length: events.length, headHash: events.length === 0 ? '' : events[events.length - 1]!.hash };
}

const CSV_COLUMNS = ['id', 'at', 'time', 'op', 'objectId', 'meta', 'prevHash', 'hash'] as const;

/**
 * RFC 4180 CSV (CRLF line ends, quoted when needed). `meta` is its JSON text. A cell that a
 * spreadsheet would read as a formula (leading = + - @ tab CR) is prefixed with an apostrophe.
 */
export function eventsToCsv(events: readonly EventRecord[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const event of events) {
    const cells = [
      event.id,
      String(event.at),
      isoTime(event.at) ?? '',
      event.op,
      event.objectId,
      JSON.stringify(event.meta),
      event.prevHash,
      event.hash,
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** One CSV cell: quoted when needed, and a leading formula character defused (a spreadsheet would run it). */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}
