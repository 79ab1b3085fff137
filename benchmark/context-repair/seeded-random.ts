/** Mulberry32: a tiny seeded generator, so the same seed always gives the same cases (byte for byte). */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** A whole number in [low, high]. */
  integer(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.integer(0, items.length - 1)]!;
  }
}

/** A seed for one (family, depth, index) cell, mixed from the run seed so cells do not share streams. */
export function cellSeed(seed: number, family: number, depth: number, index: number): number {
  let hash = seed >>> 0;
  for (const part of [family, depth, index]) {
    hash = Math.imul(hash ^ part, 0x9e3779b1) >>> 0;
    hash ^= hash >>> 16;
  }
  return hash >>> 0;
}
