/**
 * C9: the one handshake of every dispatch (a model's answer, an agent turn, an ask of the canvas). The client hashes
 * what it sends; the server hashes what it will hand over; the two must be equal before anything is handed over
 * (the server's check) and before anything is recorded (the client's check, on the server's acceptance); the
 * commit is written once per dispatch. Both sides run it through this one state machine.
 */

/** Where a dispatch stands: waiting for the other side's hash, accepted (the hashes matched), or refused. */
export type HandshakeState = 'waiting' | 'accepted' | 'refused';

/** What checking the other side's hash found. `repeated`: the dispatch was already accepted or refused. */
export type HandshakeCheck = { ok: true } | { ok: false; code: 'hash-mismatch' | 'handshake-repeated' };

/** The first twelve hex digits and an ellipsis: how a hash is named to a person. */
export function shortHash(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}

export class DispatchHandshake {
  private current: HandshakeState = 'waiting';
  private committed = false;

  /** `expectedHash`: the hash this side computed of the request (the preview's hash on the client). */
  constructor(readonly expectedHash: string) {}

  get state(): HandshakeState {
    return this.current;
  }

  /**
   * The other side's hash of the same dispatch: accepted when it equals ours; a different hash refuses the
   * dispatch for good. A dispatch is checked once: a second check (a repeated acceptance) is refused and changes
   * nothing.
   */
  check(otherHash: string): HandshakeCheck {
    if (this.current !== 'waiting') return { ok: false, code: 'handshake-repeated' };
    if (otherHash !== this.expectedHash) {
      this.current = 'refused';
      return { ok: false, code: 'hash-mismatch' };
    }
    this.current = 'accepted';
    return { ok: true };
  }

  /** True exactly once, and only after acceptance: the moment the caller writes its commit. */
  commit(): boolean {
    if (this.current !== 'accepted' || this.committed) return false;
    this.committed = true;
    return true;
  }

  get isCommitted(): boolean {
    return this.committed;
  }
}
