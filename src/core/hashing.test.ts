import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashCanonical, sha256Hex } from './hashing.ts';
import { Sha256Stream } from './sha256.ts';

describe('sha256Hex', () => {
  it('matches the NIST vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('equals @noble/hashes on every length around the block boundaries and on random bytes', () => {
    for (let length = 0; length < 200; length += 1) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 31 + length) & 0xff);
      expect(sha256Hex(bytes)).toBe(bytesToHex(sha256(bytes)));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => sha256Hex(bytes) === bytesToHex(sha256(bytes))),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => sha256Hex(text) === bytesToHex(sha256(utf8ToBytes(text)))),
      { numRuns: 200 },
    );
    // Any UTF-16 code units, lone surrogates included (both encode them as U+FFFD), across block boundaries.
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(
        fc.string({ unit: anyUnit, maxLength: 200 }),
        (text) => sha256Hex(text) === bytesToHex(sha256(utf8ToBytes(text))),
      ),
      { numRuns: 300 },
    );
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('produces exactly what the canonicalize package produces', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => canonicalJson(value) === canonicalize(value)),
      { numRuns: 400 },
    );
  });

  it('agrees with canonicalize on random values with any UTF-16 text, lone surrogates and edge numbers', () => {
    // Code units of every kind (lone surrogates included), whole astral characters, and the
    // keys that force the general serialiser.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('\ud800', '\udfff', '\ud83d\ude00', '\u2028', '\u0000', '"', '\\', 'é', 'a', 'Z'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    const text = fc.oneof(
      fc.string({ unit, maxLength: 8 }),
      fc.constantFrom('__proto__', '10', '9', '0', '01', 'toJSON'),
    );
    const number = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(
        1e21,
        1e20,
        -0,
        5e-324,
        1e-7,
        1e-6,
        0.1 + 0.2,
        Number.MAX_VALUE,
        -Number.MAX_SAFE_INTEGER,
        Number.EPSILON,
        Number.NaN,
        Infinity,
      ),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        number,
        fc.boolean(),
        fc.constant(null),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 5 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
    }));
    const outcome = (run: () => string | undefined): string => {
      try {
        return `ok ${run()}`;
      } catch {
        return 'refused'; // which of several problems is named first may differ; refusing is what counts
      }
    };
    fc.assert(
      fc.property(fc.oneof(value, fc.array(value), fc.dictionary(text, value)), (input) => {
        expect(outcome(() => canonicalJson(input))).toBe(outcome(() => canonicalize(input)));
      }),
      { numRuns: 2000 },
    );
  });

  // Long strings are written without a copy and streamed to the hasher in pieces: both must change nothing.
  it('agrees with canonicalize on long texts, and the streamed hash equals the hash of the whole text', () => {
    const long = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 200, maxLength: 2000 }),
      fc.string({
        unit: fc.constantFrom('a', ' ', '"', '\\', '\n', '\ud83d\ude00', 'é'),
        minLength: 250,
        maxLength: 600,
      }),
      fc.string({ maxLength: 20 }),
    );
    const member = fc.oneof(
      long,
      fc.integer(),
      fc.constant(undefined),
      long.map((text) => ({ toJSON: () => ({ text }) })),
    );
    const record = fc.dictionary(long, member, { maxKeys: 4 });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), (input) => {
        const text = canonicalJson(input);
        expect(text).toBe(canonicalize(input));
        expect(hashCanonical(input)).toBe(sha256Hex(text));
      }),
      { numRuns: 150 },
    );
  });

  // Long text takes a different escape scan from short text: one character needing care must be found anywhere.
  it('escapes one control character, quote or backslash anywhere in a long text, and refuses a lone surrogate', () => {
    const prose = fc.string({ unit: fc.constantFrom('a', ' ', 'é', '.'), minLength: 300, maxLength: 900 });
    fc.assert(
      fc.property(
        prose,
        fc.nat(),
        fc.constantFrom('\ud800', '\udfff', '\ud83d\ude00', '\n', '\u0000', '\u001f', '"', '\\'),
        (text, at, unit) => {
          const cut = at % text.length;
          const input = { text: text.slice(0, cut) + unit + text.slice(cut) };
          if (unit !== '\ud800' && unit !== '\udfff') {
            expect(canonicalJson(input)).toBe(canonicalize(input));
            expect(hashCanonical(input)).toBe(sha256Hex(canonicalize(input)!));
          } else {
            expect(() => canonicalize(input)).toThrow();
            expect(() => canonicalJson(input)).toThrow(/surrogate/);
            expect(() => hashCanonical(input)).toThrow(/surrogate/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes the general path for index-like and __proto__ keys and toJSON, with the same output', () => {
    const tricky = JSON.parse('{"b":1,"10":2,"9":3,"__proto__":{"z":1,"a":2},"when":{"x":1}}') as Record<
      string,
      unknown
    >;
    expect(canonicalJson(tricky)).toBe(canonicalize(tricky));
    expect(canonicalJson(tricky)).toBe('{"10":2,"9":3,"__proto__":{"a":2,"z":1},"b":1,"when":{"x":1}}');
    const dated = { at: new Date(0), list: [undefined, () => 1] };
    expect(canonicalJson(dated)).toBe('{"at":"1970-01-01T00:00:00.000Z","list":[null,null]}');
    // A member whose toJSON gives nothing is omitted, as JSON.stringify omits it (canonicalize writes `undefined`).
    const key = 'k'.repeat(300);
    expect(canonicalJson({ [key]: { toJSON: () => undefined }, b: 1 })).toBe('{"b":1}');
    expect(hashCanonical({ [key]: { toJSON: () => undefined }, b: 1 })).toBe(sha256Hex('{"b":1}'));
  });

  it('sorts keys by UTF-16 code units and serialises numbers the ECMAScript way', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], '\u00e9': 1e21, A: 0.000001, z: -0 })).toBe(
      '{"A":0.000001,"a":[true,null,"x"],"b":1,"z":0,"é":1e+21}',
    );
    expect(canonicalJson({ skip: undefined, keep: 1 })).toBe('{"keep":1}');
  });

  it('refuses values with no canonical form', () => {
    expect(() => canonicalJson('\ud800')).toThrow(/surrogate/);
    expect(() => canonicalJson(Number.NaN)).toThrow();
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/Circular/);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  // RFC 8785's own examples: §3.2.2 (input as the RFC prints it, parsed), §3.2.3 (property sorting),
  // §3.2.4 (the UTF-8 bytes of the §3.2.2 output) and Appendix B (IEEE 754 bit patterns → number text).
  it('gives the RFC 8785 §3.2.2 output and its §3.2.4 UTF-8 bytes', () => {
    const input = JSON.parse(
      String.raw`{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
      }`,
    ) as unknown;
    const output = canonicalJson(input);
    expect(output).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
    const bytes =
      '7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72 75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 ' +
      '22 3a 5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31 65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 ' +
      '65 2d 32 37 5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30 30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c ' +
      '22 2f 22 7d';
    expect(
      Buffer.from(output, 'utf8')
        .toString('hex')
        .replace(/(..)(?!$)/g, '$1 '),
    ).toBe(bytes);
  });

  it('sorts properties as RFC 8785 §3.2.3 shows (UTF-16 code units, so U+1F600 before U+FB33)', () => {
    const input = JSON.parse(
      String.raw`{
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\ud83d\ude00": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis"
      }`,
    ) as Record<string, string>;
    // Expected order (the RFC's list): \r, 1, U+0080, ö, €, U+1F600, U+FB33.
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('serialises every RFC 8785 Appendix B number as the RFC lists it, and refuses its NaN and Infinity', () => {
    const double = (bits: string): number => {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, BigInt(`0x${bits}`));
      return view.getFloat64(0);
    };
    const appendixB: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, text] of appendixB) {
      expect(canonicalJson(double(bits)), bits).toBe(text);
      expect(canonicalJson({ n: [double(bits)] }), bits).toBe(`{"n":[${text}]}`);
    }
    expect(() => canonicalJson(double('7fffffffffffffff'))).toThrow();
    expect(() => canonicalJson(double('7ff0000000000000'))).toThrow();
  });

  it('hashCanonical is key-order independent', () => {
    expect(hashCanonical({ a: 1, b: [1, 2] })).toBe(hashCanonical({ b: [1, 2], a: 1 }));
  });
});

describe('Sha256Stream', () => {
  it('gives the one-shot digest however the input is split, and clones mid-stream', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.array(fc.nat({ max: 400 }), { maxLength: 5 }),
        (bytes, cuts) => {
          const points = [...new Set(cuts.map((cut) => Math.min(cut, bytes.length)))].sort(
            (left, right) => left - right,
          );
          const stream = new Sha256Stream();
          let start = 0;
          const prefixes: { at: number; copy: Sha256Stream }[] = [];
          for (const point of [...points, bytes.length]) {
            stream.update(bytes.subarray(start, point));
            prefixes.push({ at: point, copy: stream.clone() });
            start = point;
          }
          expect(stream.digestHex()).toBe(bytesToHex(sha256(bytes)));
          expect(stream.digestHex()).toBe(bytesToHex(sha256(bytes)));
          for (const { at, copy } of prefixes) {
            expect(copy.clone().update(bytes.subarray(at)).digestHex()).toBe(bytesToHex(sha256(bytes)));
            expect(copy.digestHex()).toBe(bytesToHex(sha256(bytes.subarray(0, at))));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
