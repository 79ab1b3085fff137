import { describe, expect, it } from 'vitest';
import { createIdGenerator } from './app-dependencies.ts';

describe('createIdGenerator', () => {
  it('takes its random tail from the UUID source', () => {
    const newId = createIdGenerator(
      () => 0,
      () => '123e4567-e89b-42d3-a456-426614174000',
    );
    expect(newId()).toBe('001426614174000');
  });

  it('ids made in the same millisecond sort in the order they were made, and never repeat', () => {
    const newId = createIdGenerator(() => 1_760_000_000_000);
    const ids = Array.from({ length: 1000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('two windows started in the same millisecond make different ids (crypto.randomUUID, not a shared seed)', () => {
    const first = createIdGenerator(() => 1_760_000_000_000);
    const second = createIdGenerator(() => 1_760_000_000_000);
    expect(first()).not.toBe(second());
  });
});
