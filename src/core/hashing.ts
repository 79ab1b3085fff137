import { canonicalJsonText } from './canonical-json.ts';
import { sha256HexOfBytes } from './sha256.ts';

/**
 * The one hashing function of Weft: SHA-256 (lowercase hex) over RFC 8785 canonical JSON.
 * Fingerprints, request hashes, bundles and the event chain all go through `hashCanonical`.
 * Both halves are tuned implementations checked against `canonicalize` and `@noble/hashes`.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalJsonText(value);
  if (text === undefined) throw new TypeError('value has no canonical JSON form');
  return text;
}

/** TextEncoder is a global of every runtime core runs in (browsers, Node); typed here because
 * core compiles without DOM or Node types. It returns a fresh array: no defensive copy needed. */
const encoder = new (
  globalThis as unknown as { TextEncoder: new () => { encode(text: string): Uint8Array } }
).TextEncoder();

export function sha256Hex(input: string | Uint8Array): string {
  return sha256HexOfBytes(typeof input === 'string' ? encoder.encode(input) : input);
}

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
