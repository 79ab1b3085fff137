import type { CanvasNode, RequestMessage } from '../../protocol/index.ts';
import { imageDigest, type ContextSink } from './assemble.ts';
import type { ContextLayer } from './compiled-context.ts';
import type { HashPort, Sha256Hasher } from './hash-port.ts';

const OPENING = '{"format":"weft.fingerprint","messages":[';
const CLOSING = '],"version":1}';

/** Where a context stands just before its own question: what a child's fingerprint extends. */
export interface FingerprintPrefix {
  stream: Sha256Hasher;
  messageCount: number;
  seenAttachments: Set<string>;
}

/**
 * Streams, directly into SHA-256, the RFC 8785 canonical JSON of
 * `{ format: 'weft.fingerprint', version: 1, messages: [[role, [partDigest…]]…] }`
 * (keys already in canonical order; tokens are hex digests, roles and JSON-escaped image
 * digests). Equality with `hashCanonical` of that object is asserted in the property tests.
 * When the own question begins it takes a snapshot, the prefix a child can extend.
 */
export class FingerprintSink implements ContextSink {
  readonly wantsDigests = true;
  private readonly stream: Sha256Hasher;
  private messageCount: number;
  private current = '';
  private parts = 0;
  /** Set when the target's own question begins. */
  prefix: Omit<FingerprintPrefix, 'seenAttachments'> | null = null;

  constructor(hash: HashPort, resume?: FingerprintPrefix) {
    this.stream = resume ? resume.stream.clone() : hash.createSha256().update(OPENING);
    this.messageCount = resume ? resume.messageCount : 0;
  }

  begin(_node: CanvasNode, layer: ContextLayer, role: RequestMessage['role']): void {
    if (layer === 'question') this.prefix = { stream: this.stream.clone(), messageCount: this.messageCount };
    this.current = `["${role}",[`;
    this.parts = 0;
  }

  text(_partId: string, _text: string, digest: string): void {
    this.append(`"${digest}"`);
  }

  image(_partId: string, hash: string, mediaType: string): void {
    this.append(JSON.stringify(imageDigest(hash, mediaType)));
  }

  private append(token: string): void {
    this.current += this.parts === 0 ? token : `,${token}`;
    this.parts += 1;
  }

  end(): void {
    if (this.parts === 0) return;
    this.write((this.messageCount === 0 ? '' : ',') + this.current + ']]');
    this.messageCount += 1;
  }

  /** The state after every message so far (before the closing), for a child to extend. */
  snapshot(seenAttachments: Set<string>): FingerprintPrefix {
    return { stream: this.stream.clone(), messageCount: this.messageCount, seenAttachments };
  }

  digestHex(): string {
    return this.stream.clone().update(CLOSING).digestHex();
  }

  private write(text: string): void {
    this.stream.update(text);
  }
}
