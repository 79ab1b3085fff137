/**
 * A binary min-heap of integer ranks: the ready set of Kahn's algorithm in both topological
 * orders (walk.ts over ids, graph-index.ts over the integer index), where rank = position in
 * the creation-time-then-id order, so the smallest ready rank is the C5 tie-break.
 */
export class RankHeap {
  private readonly heap: Int32Array;
  private count = 0;

  constructor(capacity: number) {
    this.heap = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(rank: number): void {
    const heap = this.heap;
    let slot = this.count;
    this.count += 1;
    while (slot > 0) {
      const parent = (slot - 1) >> 1;
      if (heap[parent]! <= rank) break;
      heap[slot] = heap[parent]!;
      slot = parent;
    }
    heap[slot] = rank;
  }

  /** Removes and returns the smallest rank; the heap must not be empty. */
  pop(): number {
    const heap = this.heap;
    const top = heap[0]!;
    this.count -= 1;
    const size = this.count;
    const last = heap[size]!;
    let slot = 0;
    for (;;) {
      const left = slot * 2 + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && heap[right]! < heap[left]! ? right : left;
      if (heap[child]! >= last) break;
      heap[slot] = heap[child]!;
      slot = child;
    }
    heap[slot] = last;
    return top;
  }
}
