import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../protocol/index.ts';
import { eventCanonicalJson } from './event-canonical-json.ts';
import { appendEvent, eventHash, verifyChain } from './event-log.ts';
import { canonicalJson, hashCanonical } from './hashing.ts';

type HashedFields = Omit<EventRecord, 'hash'>;

/** Text of every kind a crafted or odd event may hold: plain ids, hex, escapes, controls, any UTF-16 (lone surrogates). */
const text = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[a-z0-9-]{0,12}$/) },
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9a-f]{64}$/) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', 'a"b', 'back\\slash', 'line\nbreak', '\u0000', '\u001f', '\u007f', '\ud800', 'x\udc00', '😀'),
);

const number = fc.oneof(
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  fc.double(),
  fc.constantFrom(0, -0, 1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY),
);

/** Mostly what events hold (flat, plain values), sometimes what only a crafted file would. */
const metaValue = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(text, number, fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }), fc.constant([1, 'two'])) },
);

const meta = fc.oneof(
  { weight: 8, arbitrary: fc.dictionary(text, metaValue, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], 'meta', { toJSON: () => ({ swapped: true }) }) },
);

const event: fc.Arbitrary<HashedFields> = fc.record({
  id: text,
  at: fc.oneof({ weight: 6, arbitrary: number }, { weight: 1, arbitrary: fc.constantFrom('1', undefined) }),
  op: text,
  objectId: text,
  meta,
  prevHash: text,
}) as fc.Arbitrary<HashedFields>;

/** The text, or that it threw: a crafted event with no canonical form is refused the same way on both paths. */
function outcome(write: () => string): { text: string } | { refused: true } {
  try {
    return { text: write() };
  } catch {
    return { refused: true };
  }
}

describe('eventCanonicalJson', () => {
  it('is byte for byte the generic canonical JSON of the hashed fields, on random and crafted events', () => {
    fc.assert(
      fc.property(event, (input) => {
        const { id, at, op, objectId, meta: metaField, prevHash } = input;
        const generic = outcome(() => canonicalJson({ id, at, op, objectId, meta: metaField, prevHash }));
        expect(outcome(() => eventCanonicalJson(input))).toEqual(generic);
        // Extra fields (the hash itself, anything a file adds) are never part of what is hashed.
        expect(outcome(() => eventCanonicalJson({ ...input, hash: 'f'.repeat(64), extra: 1 } as HashedFields))).toEqual(
          generic,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the hashes earlier versions wrote: a log stored before still verifies', () => {
    // Digests computed by the generic serialiser before this one existed (commit f70e7064).
    const first = {
      id: 'e-1',
      at: 1_700_000_000_000,
      op: 'edit-node',
      objectId: 'node "α" 😀',
      meta: { fields: 'question', n: 3, z: null, a: true, ü: 'tab\there' },
      prevHash: '',
    };
    const firstHash = '60338aff6ab2b935e512c0a360debfd70727639d6b1a45fac59a07e74ab50f9d';
    const second = {
      id: 'e-2',
      at: 1_700_000_000_001,
      op: 'add-node',
      objectId: 'n1',
      meta: { fields: 'question', count: 2, ok: false, none: null, é: 'ünïcode ☃' },
      prevHash: firstHash,
    };
    const secondHash = '410879fdabc10c38863c61883ae831aab78ed567628e5b1c0754aa55976cab96';
    expect(eventHash(first)).toBe(firstHash);
    expect(eventHash(second)).toBe(secondHash);
    expect(
      verifyChain([
        { ...first, hash: firstHash },
        { ...second, hash: secondHash },
      ]),
    ).toBeNull();
  });

  it('hashes to what hashCanonical gives the same fields, so appending and verifying agree', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ op: text, objectId: text, meta }), { maxLength: 8 }), (drafts) => {
        const log: EventRecord[] = [];
        for (const [index, draft] of drafts.entries()) {
          const draftMeta = draft.meta as EventRecord['meta'];
          let appended: EventRecord;
          try {
            appended = appendEvent(log, { ...draft, meta: draftMeta }, { now: index, newId: () => `e${index}` });
          } catch {
            // No canonical form (a lone surrogate, NaN): refused on append as before.
            expect(() => hashCanonical({ id: `e${index}`, at: index, ...draft, prevHash: '' })).toThrow();
            continue;
          }
          const { hash, ...fields } = appended;
          expect(hash).toBe(hashCanonical(fields));
          log.push(appended);
        }
        expect(verifyChain(log)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});
