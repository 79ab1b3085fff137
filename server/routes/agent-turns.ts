import type { ApprovalDecision } from '../../runtime/agents/index.ts';

/**
 * The approval cards open on running agent turns, by turn id and request id. A card is answered once; an answer
 * for a card that is not open (already decided, timed out, turn over) is refused so the UI can say so.
 */
export class AgentTurns {
  private readonly open = new Map<string, Map<string, (decision: ApprovalDecision) => void>>();
  /** Each running turn's stop: Stop asks the runtime to abort while the stream stays open for the turn's end. */
  private readonly controllers = new Map<string, AbortController>();

  begin(turnId: string, controller: AbortController): void {
    this.open.set(turnId, new Map());
    this.controllers.set(turnId, controller);
  }

  end(turnId: string): void {
    this.open.delete(turnId);
    this.controllers.delete(turnId);
  }

  /** False when the turn is not running (over, or never was). */
  stop(turnId: string): boolean {
    const controller = this.controllers.get(turnId);
    if (!controller) return false;
    controller.abort();
    return true;
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
