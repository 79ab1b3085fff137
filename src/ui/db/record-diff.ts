interface Keyed<T> {
  key: string;
  record: T;
}

function byKey<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) map.set(keyOf(item), item);
  return map;
}

/** Rows whose record object changed (by identity) and keys that disappeared. */
export function diffRecords<T>(
  previous: Iterable<T> | null,
  next: Iterable<T>,
  keyOf: (item: T) => string,
): { put: Keyed<T>[]; remove: string[] } {
  const before = previous ? byKey(previous, keyOf) : new Map<string, T>();
  const put: Keyed<T>[] = [];
  const seen = new Set<string>();
  for (const record of next) {
    const key = keyOf(record);
    seen.add(key);
    if (before.get(key) !== record) put.push({ key, record });
  }
  const remove = [...before.keys()].filter((key) => !seen.has(key));
  return { put, remove };
}
