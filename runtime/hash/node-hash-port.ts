import { createHash, hash as oneShot, type Hash } from 'node:crypto';
import type { HashPort, Sha256Hasher } from '../../src/core/index.ts';

/** A `node:crypto` hash behind core's `Sha256Hasher`: `copy()` is the clone, and finishing works on a copy. */
class NodeSha256 implements Sha256Hasher {
  constructor(private readonly hash: Hash = createHash('sha256')) {}

  update(data: Uint8Array | string): Sha256Hasher {
    // Text as UTF-8, as the JavaScript port encodes it (TextEncoder): a lone surrogate becomes U+FFFD in both.
    if (typeof data === 'string') this.hash.update(data, 'utf8');
    else this.hash.update(data);
    return this;
  }

  clone(): Sha256Hasher {
    return new NodeSha256(this.hash.copy());
  }

  digestHex(): string {
    return this.hash.copy().digest('hex');
  }
}

/**
 * SHA-256 through OpenSSL for every Node surface (server, runtime, CLI, benchmark): several times faster
 * than the JavaScript port on large inputs (the server checks up to 32 MiB of images per request).
 */
export const nodeHashPort: HashPort = {
  // `crypto.hash` (text as UTF-8): one call and no Hash object, which is most of the cost on short inputs such as
  // a log's events (a million of them verified is mostly this call).
  sha256Hex: (data) => oneShot('sha256', data, 'hex'),
  createSha256: () => new NodeSha256(),
};
