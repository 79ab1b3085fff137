/**
 * Plain-object maps keyed by ids read from files. Ids such as `__proto__` or `constructor` must not reach
 * the prototype, so reads check own properties and writes define own properties (which JSON keeps).
 */
export function getOwn<T>(map: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

export function setOwn<T>(map: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}
