import { canonicalJsonText } from './canonical-json.ts';
import { jsHashPort, type HashPort } from './hash-port.ts';

/**
 * The one hashing function of Weft: SHA-256 (lowercase hex) over RFC 8785 canonical JSON.
 * Fingerprints, request hashes, bundles and the event chain all go through `hashCanonical`.
 * SHA-256 comes from a `HashPort` (the renderer's JavaScript one by default; Node surfaces pass OpenSSL's).
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalJsonText(value);
  if (text === undefined) throw new TypeError('value has no canonical JSON form');
  return text;
}

/** Lowercase hex SHA-256 of `input` (text as UTF-8). */
export function sha256Hex(input: string | Uint8Array, hash: HashPort = jsHashPort): string {
  return hash.sha256Hex(input);
}

export function hashCanonical(value: unknown, hash: HashPort = jsHashPort): string {
  return hash.sha256Hex(canonicalJson(value));
}
