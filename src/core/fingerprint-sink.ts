import type { CanvasNode } from '../../protocol/canvas-document.ts';
import type { RequestMessage } from '../../protocol/dispatch-request.ts';
import { imageDigest, type ContextSink } from './assemble.ts';

/**
 * Writes, directly, the RFC 8785 canonical JSON of
 * `{ format: 'weft.fingerprint', version: 1, messages: [[role, [partDigest…]]…] }`
 * (keys already in canonical order; every token is a hex digest, a role or a media type,
 * escaped by JSON.stringify where it could need it). Equality with `canonicalJson` of the
 * same object is asserted in fingerprint.test.ts.
 */
export class FingerprintSink implements ContextSink {
  readonly wantsDigests = true;
  private text_ = '';
  private messageCount = 0;
  private open = '';
  private parts = 0;

  begin(_node: CanvasNode, _layer: string, role: RequestMessage['role']): void {
    this.open = `["${role}",[`;
    this.parts = 0;
  }

  text(_partId: string, _text: string, digest: string): void {
    this.append(`"${digest}"`);
  }

  image(_partId: string, hash: string, mediaType: string): void {
    this.append(JSON.stringify(imageDigest(hash, mediaType)));
  }

  private append(token: string): void {
    if (this.parts === 0) this.open += token;
    else this.open += `,${token}`;
    this.parts += 1;
  }

  end(): void {
    if (this.parts === 0) return;
    this.text_ += (this.messageCount === 0 ? '' : ',') + this.open + ']]';
    this.messageCount += 1;
  }

  canonical(): string {
    return `{"format":"weft.fingerprint","messages":[${this.text_}],"version":1}`;
  }
}
