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
 * costs more than everything else about a small object, so the last order seen for each first key is
 * kept and reused when the keys match exactly. Objects with many keys (maps by id) are sorted each time
 * and never kept; the table is emptied when it fills, so it stays small whatever is serialised.
 */
const MAX_CACHED_KEYS = 32;
const MAX_ORDERS = 2048;
const orders = new Map<string, KeyOrder>();

export function keyOrder(record: object): KeyOrder {
  const keys = Object.keys(record);
  if (keys.length > MAX_CACHED_KEYS) return orderOf(keys);
  const first = keys.length === 0 ? '' : keys[0]!;
  const known = orders.get(first);
  if (known !== undefined && sameKeys(known.keys, keys)) return known;
  const order = orderOf(keys);
  if (orders.size >= MAX_ORDERS) orders.clear();
  orders.set(first, order);
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
