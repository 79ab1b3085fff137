/**
 * Plain-object maps keyed by ids read from files. Ids such as `__proto__` or `constructor` must not reach
 * the prototype, so reads check own properties and writes define own properties (which JSON keeps).
 */
export function getOwn<T>(map: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

export function setOwn<T>(map: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` is an accessor on Object.prototype: plain assignment of any other key creates (or
  // updates) an own data property, and is far cheaper than defineProperty on every record.
  if (key === '__proto__')
    Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
  else map[key] = value;
}
