import { DispatchHandshake, shortHash } from '../../core/index.ts';

/** What the server's acceptance did to the dispatch: the hashes agree, they differ, or it was already decided. */
export type Acceptance = 'accepted' | 'refused' | 'repeated';

export interface ClientHandshake {
  /**
   * The server's acceptance arrived with its hash of what it hands over. A hash that is not the one this page
   * computed (the preview's) refuses the dispatch: the person is told (`hash-mismatch`), the request is aborted and
   * nothing may be recorded. A second acceptance of the same dispatch changes nothing.
   */
  receive(serverHash: string): Acceptance;
  /** Runs `write` (the lane's commit record) once per dispatch, and only once the server's hash was accepted. */
  commit(write: () => void): boolean;
  readonly accepted: boolean;
  readonly committed: boolean;
}

export interface ClientHandshakeOptions {
  /** The hash this page computed of what it sends (the will-send preview's, or the agent prompt's). */
  expectedHash: string;
  /** How the person knows what was sent: "request", "prompt", "ask". */
  what: string;
  /** The dispatch's request: aborted on a refusal. */
  controller: AbortController;
  /** Shows a refusal to the person (the lanes pass their store's error toast). */
  refuse: (code: 'hash-mismatch', message: string) => void;
}

/**
 * C9, the page's half of the handshake for all three lanes (`store/receive-answer.ts`, `store/run-agent-turn.ts`,
 * `ask-canvas/ask-canvas-client.ts`): the server's hash must equal the page's before the commit is written, and the
 * commit is written once.
 */
export function clientHandshake(options: ClientHandshakeOptions): ClientHandshake {
  const handshake = new DispatchHandshake(options.expectedHash);
  return {
    receive(serverHash) {
      const checked = handshake.check(serverHash);
      if (checked.ok) return 'accepted';
      if (checked.code === 'handshake-repeated') return 'repeated';
      options.refuse(
        'hash-mismatch',
        `The server hashed the ${options.what} as ${shortHash(serverHash)}, not ${shortHash(options.expectedHash)}; nothing was recorded.`,
      );
      options.controller.abort();
      return 'refused';
    },
    commit(write) {
      if (!handshake.commit()) return false;
      write();
      return true;
    },
    get accepted() {
      return handshake.state === 'accepted';
    },
    get committed() {
      return handshake.isCommitted;
    },
  };
}
