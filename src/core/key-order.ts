import { isWellFormed } from './well-formed.ts';

/**
 * An object's own enumerable keys as `Object.keys` lists them, the same keys sorted by UTF-16 code units
 * (RFC 8785), and each sorted key written as a JSON member name (`"key":`), or null for a key with a lone
 * surrogate, which has no canonical form and is refused only if its member is written.
 */
export interface KeyOrder {
  keys: readonly string[];
  sorted: readonly string[];
  names: readonly (string | null)[];
}

/**
 * Objects of one shape (records, messages, parts) list the same keys in the same order, and sorting them
 * costs more than everything else about a small object, so the orders seen are kept by first key (a few
 * per first key: text and image parts both start with `type`) and reused when the keys match exactly.
 * Objects with many keys (maps by id) are sorted each time and never kept; the table is emptied when it
 * fills, so it stays small whatever is serialised.
 */
const MAX_CACHED_KEYS = 32;
const ORDERS_PER_FIRST_KEY = 4;
const MAX_FIRST_KEYS = 1024;
const orders = new Map<string, KeyOrder[]>();

export function keyOrder(record: object): KeyOrder {
  const keys = Object.keys(record);
  if (keys.length > MAX_CACHED_KEYS) return orderOf(keys);
  const first = keys.length === 0 ? '' : keys[0]!;
  let known = orders.get(first);
  if (known !== undefined) {
    for (const order of known) if (sameKeys(order.keys, keys)) return order;
  } else {
    if (orders.size >= MAX_FIRST_KEYS) orders.clear();
    known = [];
    orders.set(first, known);
  }
  const order = orderOf(keys);
  if (known.length >= ORDERS_PER_FIRST_KEY) known.shift();
  known.push(order);
  return order;
}

function sameKeys(known: readonly string[], keys: string[]): boolean {
  if (known.length !== keys.length) return false;
  for (let index = 0; index < keys.length; index += 1) if (known[index] !== keys[index]) return false;
  return true;
}

function orderOf(keys: string[]): KeyOrder {
  const sorted = [...keys].sort();
  return { keys, sorted, names: sorted.map(memberName) };
}

/** `"key":`; JSON.stringify's escapes are the RFC's for well-formed text (ES2019). */
function memberName(key: string): string | null {
  return isWellFormed(key) ? `${JSON.stringify(key)}:` : null;
}
