import { describe, expect, it } from 'vitest';
import { DispatchHandshake, shortHash } from './dispatch-handshake.ts';

const ours = 'a'.repeat(64);
const theirs = 'b'.repeat(64);

describe('DispatchHandshake', () => {
  it('accepts the same hash, and the commit comes once, only after acceptance', () => {
    const handshake = new DispatchHandshake(ours);
    expect(handshake.commit()).toBe(false);
    expect(handshake.check(ours)).toEqual({ ok: true });
    expect(handshake.state).toBe('accepted');
    expect(handshake.commit()).toBe(true);
    expect(handshake.commit()).toBe(false);
    expect(handshake.isCommitted).toBe(true);
  });

  it('refuses another hash for good: nothing commits, and a later matching hash changes nothing', () => {
    const handshake = new DispatchHandshake(ours);
    expect(handshake.check(theirs)).toEqual({ ok: false, code: 'hash-mismatch' });
    expect(handshake.check(ours)).toEqual({ ok: false, code: 'handshake-repeated' });
    expect(handshake.state).toBe('refused');
    expect(handshake.commit()).toBe(false);
    expect(handshake.isCommitted).toBe(false);
  });

  it('a second acceptance is refused as repeated and leaves the dispatch accepted', () => {
    const handshake = new DispatchHandshake(ours);
    handshake.check(ours);
    expect(handshake.check(theirs)).toEqual({ ok: false, code: 'handshake-repeated' });
    expect(handshake.state).toBe('accepted');
  });

  it('names a hash to a person by its first twelve digits', () => {
    expect(shortHash(`0123456789ab${'c'.repeat(52)}`)).toBe('0123456789ab…');
  });
});
