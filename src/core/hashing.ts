import { canonicalJsonText, writeCanonicalJson, type CanonicalWriter } from './canonical-json.ts';
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

/** Pending text is handed to the hasher in pieces of about this many UTF-16 units. */
const FLUSH_AT = 16_384;

/**
 * SHA-256 of `canonicalJson(value)`, streamed: long strings go to the hasher as they are and short
 * pieces in batches, so the whole text is never built (the same digest, a test proves it).
 */
export function hashCanonical(value: unknown, hash: HashPort = jsHashPort): string {
  const hasher = hash.createSha256();
  const writer: CanonicalWriter = {
    pending: '',
    long(chunk) {
      if (this.pending.length >= FLUSH_AT) {
        hasher.update(this.pending);
        this.pending = '';
      }
      this.pending += chunk;
    },
  };
  if (!writeCanonicalJson(value, writer)) throw new TypeError('value has no canonical JSON form');
  if (writer.pending !== '') hasher.update(writer.pending);
  return hasher.digestHex();
}
