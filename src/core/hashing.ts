import canonicalize from 'canonicalize';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The one hashing function of Weft: SHA-256 (lowercase hex) over RFC 8785 canonical JSON.
 * Fingerprints, request hashes, bundles and the event chain all go through `hashCanonical`.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no canonical JSON form');
  return text;
}

export function sha256Hex(input: string | Uint8Array): string {
  return bytesToHex(sha256(typeof input === 'string' ? utf8ToBytes(input) : input));
}

export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
