import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.ts';

describe('KeyedQueue', () => {
  it('runs one task at a time per key, in order, and keeps going after a failure', async () => {
    const queue = new KeyedQueue();
    const order: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running++;
        expect(running).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 2));
        order.push(name);
        running--;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run('a', task('1')),
      queue.run('a', task('2', true)),
      queue.run('a', task('3')),
    ]);
    expect(order).toEqual(['1', '2', '3']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
