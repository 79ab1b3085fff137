import type { ApprovalDecision } from '../../runtime/agents/index.ts';

/**
 * The approval cards open on running agent turns, by turn id and request id. A card is answered once; an answer
 * for a card that is not open (already decided, timed out, turn over) is refused so the UI can say so.
 */
export class AgentTurns {
  private readonly open = new Map<string, Map<string, (decision: ApprovalDecision) => void>>();

  begin(turnId: string): void {
    this.open.set(turnId, new Map());
  }

  end(turnId: string): void {
    this.open.delete(turnId);
  }

  /** Resolves with the person's answer; the signal (timeout, abort) drops the card. */
  wait(turnId: string, requestId: string, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise((resolve, reject) => {
      const cards = this.open.get(turnId);
      if (!cards) return reject(new Error('turn is over'));
      cards.set(requestId, (decision) => {
        cards.delete(requestId);
        resolve(decision);
      });
      signal.addEventListener(
        'abort',
        () => {
          cards.delete(requestId);
          reject(new Error('card dropped'));
        },
        { once: true },
      );
    });
  }

  answer(turnId: string, requestId: string, decision: ApprovalDecision): boolean {
    const answer = this.open.get(turnId)?.get(requestId);
    if (!answer) return false;
    answer(decision);
    return true;
  }
}
