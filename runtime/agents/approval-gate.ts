import type { ApprovalDecision, ApprovalRequest } from './agent-events.ts';

export type DecideApproval = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/**
 * Asks once per request id (a runtime that repeats a request gets the first answer), denies on timeout, on an
 * error of the asker and when the turn is aborted, keeps "allow for this turn" until the gate's turn ends, and
 * records every decision in order.
 */
export class ApprovalGate {
  readonly decisions: { request: ApprovalRequest; decision: ApprovalDecision }[] = [];
  private readonly asked = new Map<string, Promise<ApprovalDecision>>();
  private allowedForTurn = false;

  constructor(
    private readonly decide: DecideApproval,
    private readonly timeoutMs: number,
    private readonly turnSignal?: AbortSignal,
  ) {}

  ask(request: ApprovalRequest): Promise<ApprovalDecision> {
    const earlier = this.asked.get(request.requestId);
    if (earlier) return earlier;
    const answer = this.askOnce(request);
    this.asked.set(request.requestId, answer);
    return answer;
  }

  private async askOnce(request: ApprovalRequest): Promise<ApprovalDecision> {
    // After "allow for this turn" the turn's later requests are answered without asking again (still recorded).
    if (this.allowedForTurn) {
      this.decisions.push({ request, decision: 'allow-turn' });
      return 'allow-turn';
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    this.turnSignal?.addEventListener('abort', stop, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<ApprovalDecision>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve('deny');
      }, this.timeoutMs);
    });
    const aborted = new Promise<ApprovalDecision>((resolve) => {
      if (controller.signal.aborted) resolve('deny');
      controller.signal.addEventListener('abort', () => resolve('deny'), { once: true });
    });
    let decision: ApprovalDecision;
    try {
      decision = await Promise.race([this.decide(request, controller.signal), timedOut, aborted]);
    } catch {
      decision = 'deny';
    } finally {
      clearTimeout(timer);
      this.turnSignal?.removeEventListener('abort', stop);
    }
    if (decision === 'allow-turn') this.allowedForTurn = true;
    this.decisions.push({ request, decision });
    return decision;
  }
}
