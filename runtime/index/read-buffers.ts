/**
 * Buffers for the archive's whole-file reads, reused. The archive reads each session file it keeps into memory
 * once; a new buffer per file left dead buffers outside the JavaScript heap until the engine's external-memory
 * slack triggered a collection, and a bulk index's peak RSS carried them. Buffers are `size` bytes (a read that
 * needs more gets its own, never kept) and at most `kept` of them are held, so an idle index holds `kept × size`.
 */
export class ReadBuffers {
  private readonly spare: Buffer[] = [];

  constructor(
    private readonly size: number,
    private readonly kept: number,
  ) {}

  /** A buffer of at least `length` bytes, to be handed back with `release` once nothing reads it. */
  take(length: number): Buffer {
    if (length > this.size) return Buffer.allocUnsafe(length);
    return this.spare.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  release(buffer: Buffer): void {
    if (buffer.length === this.size && this.spare.length < this.kept) this.spare.push(buffer);
  }
}
