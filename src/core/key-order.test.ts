import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashCanonical, sha256Hex } from './hashing.ts';

/** Few names, so the same first key keeps coming back with other keys, in other orders, and other subsets. */
const NAMES = ['id', 'text', 'at', 'a', 'b', '10', '9', '', 'é', '\ud83d\ude00', 'Z', 'role'];

/** Builds the object key by key in the given order (defineProperty, so `__proto__` would be an own key too). */
function build(entries: [string, unknown][]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [key, member] of entries)
    Object.defineProperty(record, key, { value: member, enumerable: true, writable: true, configurable: true });
  return record;
}

const member: fc.Arbitrary<unknown> = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(undefined));
const record = fc
  .uniqueArray(fc.constantFrom(...NAMES), { maxLength: NAMES.length })
  .chain((keys) => fc.tuple(...keys.map((key) => member.map((value): [string, unknown] => [key, value]))))
  .map((entries) => build(entries));

describe('key orders reused across objects of one shape', () => {
  it('give canonicalize’s output for objects that share first keys but differ in keys, order or count', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(record, fc.array(record, { maxLength: 3 })), { maxLength: 30 }), (input) => {
        // Each object on its own too, so an order kept from an earlier call is read by a later one.
        for (const item of input) expect(canonicalJson(item)).toBe(canonicalize(item));
        expect(canonicalJson(input)).toBe(canonicalize(input));
      }),
      { numRuns: 500 },
    );
  });

  it('alternating shapes with the same first key never borrow each other’s order, more of them than are kept', () => {
    const tails = [['b', 'a'], ['a'], ['z', 'a'], ['c', 'b', 'a'], ['y'], ['a', 'b'], []];
    const shapes = tails.map((tail) => build([['id', 1], ...tail.map((key): [string, unknown] => [key, key])]));
    for (let round = 0; round < 3; round += 1)
      for (const shape of shapes) expect(canonicalJson(shape)).toBe(canonicalize(shape));
    expect(canonicalJson(shapes.slice(0, 3))).toBe(
      '[{"a":"a","b":"b","id":1},{"a":"a","id":1},{"a":"a","id":1,"z":"z"}]',
    );
  });

  it('refuses a lone-surrogate key every time, not only the first', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(() => canonicalJson({ ok: 1, '\ud800': 2 })).toThrow(/surrogate/);
      expect(() => hashCanonical({ ok: 1, '\ud800': 2 })).toThrow(/surrogate/);
    }
    expect(canonicalJson({ ok: 1 })).toBe('{"ok":1}');
    // A member that is omitted is never written, so its key is never refused (as before the orders were kept).
    expect(canonicalJson({ ok: 1, '\ud800': undefined })).toBe('{"ok":1}');
  });

  it('stays right past the table’s size and for objects with many keys', () => {
    const many = Array.from({ length: 5000 }, (_, index) =>
      build([
        [`k${index}`, index],
        ['a', -index],
      ]),
    );
    expect(canonicalJson(many)).toBe(canonicalize(many));
    const wide = build(Array.from({ length: 200 }, (_, index): [string, unknown] => [`w${(index * 37) % 200}`, index]));
    expect(canonicalJson(wide)).toBe(canonicalize(wide));
    expect(hashCanonical([wide, many])).toBe(sha256Hex(canonicalize([wide, many])!));
  });
});
