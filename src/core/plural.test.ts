import { describe, expect, it } from 'vitest';
import { plural } from './plural.ts';

describe('plural', () => {
  it('uses the singular for one and the plural otherwise, zero included', () => {
    expect(plural(1, 'message')).toBe('1 message');
    expect(plural(0, 'message')).toBe('0 messages');
    expect(plural(2, 'file')).toBe('2 files');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'reply', 'replies')).toBe('1 reply');
    expect(plural(5, 'reply', 'replies')).toBe('5 replies');
  });

  it('writes a large count with the locale’s grouping', () => {
    expect(plural(12345, 'token')).toBe(`${new Intl.NumberFormat().format(12345)} tokens`);
  });
});
