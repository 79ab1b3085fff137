import { Sha256Stream } from './sha256.ts';

/**
 * Incremental SHA-256 that can be cloned mid-stream: a fingerprint hashes a chain's shared prefix once
 * and extends a clone of it per child. Text is hashed as its UTF-8 bytes.
 */
export interface Sha256Hasher {
  update(data: Uint8Array | string): Sha256Hasher;
  /** An independent copy of the state so far. */
  clone(): Sha256Hasher;
  /** Lowercase hex of everything so far; the hasher itself can still be extended. */
  digestHex(): string;
}

/**
 * How core gets SHA-256 (a port, like the injected `now` and `newId`): the renderer uses the tested
 * JavaScript implementation below, Node surfaces pass an OpenSSL adapter (`runtime/hash`). Both must
 * give the same digest for the same bytes (a property test checks it).
 */
export interface HashPort {
  /** Lowercase hex SHA-256 of `data` (text as UTF-8). */
  sha256Hex(data: Uint8Array | string): string;
  createSha256(): Sha256Hasher;
}

/** The plain TypeScript SHA-256 of `sha256.ts`: what the renderer (and any runtime without OpenSSL) uses. */
export const jsHashPort: HashPort = {
  sha256Hex: (data) => new Sha256Stream().update(data).digestHex(),
  createSha256: () => new Sha256Stream(),
};
