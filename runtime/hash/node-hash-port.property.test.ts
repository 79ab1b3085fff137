import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsHashPort, type HashPort, type Sha256Hasher } from '../../src/core/hash-port.ts';
import { canonicalJson, hashCanonical } from '../../src/core/hashing.ts';
import { computeStaleFull, demoCanvas, graphFromDocument } from '../../src/core/index.ts';
import { nodeHashPort } from './node-hash-port.ts';

/** Any JSON value with any UTF-16 text (astral characters included), so the canonical bytes are real UTF-8. */
const value = fc.jsonValue({ maxDepth: 3 }).chain((json) =>
  fc.oneof(
    fc.constant(json),
    fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => ({ text, json })),
  ),
);

/** Feeds `bytes` in pieces cut at `cuts`, cloning at every cut; returns the final digest and each clone's. */
function streamed(port: HashPort, bytes: Uint8Array, cuts: number[]): { whole: string; clones: string[] } {
  const points = [...new Set(cuts.map((cut) => Math.min(cut, bytes.length)))].sort((left, right) => left - right);
  const hasher = port.createSha256();
  const clones: { at: number; copy: Sha256Hasher }[] = [];
  let start = 0;
  for (const point of points) {
    hasher.update(bytes.subarray(start, point));
    clones.push({ at: point, copy: hasher.clone() });
    start = point;
  }
  hasher.update(bytes.subarray(start));
  const whole = hasher.digestHex();
  // Each clone is finished as it stands and, separately, extended by the rest: neither may touch the other.
  const finished = clones.flatMap(({ at, copy }) => [
    copy.digestHex(),
    copy.clone().update(bytes.subarray(at)).digestHex(),
  ]);
  return { whole, clones: finished };
}

describe('the OpenSSL and JavaScript SHA-256 ports', () => {
  it('give the same one-shot digest for the same canonical bytes (and for the text they encode)', () => {
    fc.assert(
      fc.property(value, (input) => {
        const text = canonicalJson(input);
        const bytes = new TextEncoder().encode(text);
        const expected = jsHashPort.sha256Hex(bytes);
        expect(nodeHashPort.sha256Hex(bytes)).toBe(expected);
        expect(nodeHashPort.sha256Hex(text)).toBe(expected);
        expect(jsHashPort.sha256Hex(text)).toBe(expected);
        expect(hashCanonical(input, nodeHashPort)).toBe(hashCanonical(input));
      }),
      { numRuns: 300 },
    );
  });

  it('give the same digests incrementally, with clones taken at random split points', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          value.map((input) => new TextEncoder().encode(canonicalJson(input))),
          fc.uint8Array({ maxLength: 700 }),
        ),
        fc.array(fc.nat({ max: 700 }), { maxLength: 6 }),
        (bytes, cuts) => {
          const node = streamed(nodeHashPort, bytes, cuts);
          const js = streamed(jsHashPort, bytes, cuts);
          expect(node).toEqual(js);
          expect(node.whole).toBe(jsHashPort.sha256Hex(bytes));
          for (const [index, digest] of node.clones.entries()) if (index % 2 === 1) expect(digest).toBe(node.whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hash text the same way, lone surrogates included (both write U+FFFD)', () => {
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(fc.array(fc.string({ unit: anyUnit, maxLength: 300 }), { maxLength: 4 }), (pieces) => {
        const node = nodeHashPort.createSha256();
        const js = jsHashPort.createSha256();
        for (const piece of pieces) {
          node.update(piece);
          js.update(piece);
        }
        expect(node.digestHex()).toBe(js.digestHex());
        expect(nodeHashPort.sha256Hex(pieces.join(''))).toBe(jsHashPort.sha256Hex(pieces.join('')));
      }),
      { numRuns: 300 },
    );
  });

  it('give every fingerprint of a canvas the same value', () => {
    let counter = 0;
    const graph = graphFromDocument(demoCanvas(1_760_000_000_000, () => `n${(counter += 1)}`));
    const js = computeStaleFull(graph).fingerprints;
    const node = computeStaleFull(graph, nodeHashPort).fingerprints;
    expect(js.size).toBeGreaterThan(0);
    expect(new Map(node)).toEqual(new Map(js));
  });
});
