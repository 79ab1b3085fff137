import { describe, expect, it } from 'vitest';
import { ReadBuffers } from './read-buffers.ts';

describe('ReadBuffers (the archive reuses its whole-file read buffers)', () => {
  it('hands a released buffer out again instead of allocating, and holds at most `kept` of them', () => {
    const buffers = new ReadBuffers(1024, 2);
    const first = buffers.take(10);
    const second = buffers.take(1024);
    const third = buffers.take(500);
    expect(new Set([first, second, third]).size).toBe(3);
    for (const buffer of [first, second, third]) buffers.release(buffer);
    const again = [buffers.take(1), buffers.take(1), buffers.take(1)];
    // Two were kept; the third read allocates a new one.
    expect(again.filter((buffer) => buffer === first || buffer === second || buffer === third)).toHaveLength(2);
  });

  it('gives a read longer than its size a buffer of its own, which is never kept', () => {
    const buffers = new ReadBuffers(1024, 2);
    const large = buffers.take(4096);
    expect(large.length).toBe(4096);
    buffers.release(large);
    expect(buffers.take(4096)).not.toBe(large);
    expect(buffers.take(10).length).toBe(1024);
  });
});
