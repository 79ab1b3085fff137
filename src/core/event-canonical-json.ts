import type { EventRecord } from '../../protocol/index.ts';
import { canonicalJson } from './hashing.ts';
import { keyOrder } from './key-order.ts';

/**
 * Text JSON writes as it is between quotes: nothing to escape and no surrogate (a pair would be fine, a lone one
 * has no canonical form; both go the generic way, which decides).
 */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

function plain(value: unknown): value is string {
  return typeof value === 'string' && PLAIN.test(value);
}

/**
 * The canonical JSON (RFC 8785) of what an event's chain hash covers: byte for byte `canonicalJson` of
 * `{ id, at, op, objectId, meta, prevHash }` (a property test holds them equal), written straight for the shape
 * every event has — the six members in sorted order, a flat `meta` of plain strings, finite numbers, booleans and
 * nulls — so verifying a long log does not walk each event generically. Anything else (text to escape, a nested
 * or odd value, a crafted event) is handed to `canonicalJson`, which writes it or throws as it always has.
 */
export function eventCanonicalJson(event: Omit<EventRecord, 'hash'>): string {
  const { id, at, op, objectId, meta, prevHash } = event;
  if (typeof at === 'number' && Number.isFinite(at) && plain(id) && plain(op) && plain(objectId) && plain(prevHash)) {
    const metaText = flatMetaJson(meta);
    if (metaText !== null)
      return `{"at":${at},"id":"${id}","meta":${metaText},"objectId":"${objectId}","op":"${op}","prevHash":"${prevHash}"}`;
  }
  return canonicalJson({ id, at, op, objectId, meta, prevHash });
}

/** `meta` written directly when it is a flat record of plain values; null sends the event the generic way. */
function flatMetaJson(meta: unknown): string | null {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return null;
  const record = meta as Record<string, unknown>;
  if (typeof record.toJSON === 'function') return null;
  const { sorted, names } = keyOrder(record);
  let text = '{';
  for (let index = 0; index < sorted.length; index += 1) {
    const value = record[sorted[index]!];
    // Members without a JSON form are left out, as `canonicalJson` leaves them out.
    if (value === undefined) continue;
    const name = names[index]!;
    if (name === null) return null;
    let member: string;
    if (value === null) member = 'null';
    else if (typeof value === 'boolean') member = value ? 'true' : 'false';
    else if (typeof value === 'number' && Number.isFinite(value)) member = `${value}`;
    else if (plain(value)) member = `"${value}"`;
    else return null;
    text += text.length === 1 ? name + member : `,${name}${member}`;
  }
  return `${text}}`;
}
