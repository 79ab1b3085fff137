import type { ApprovalDecision, ApprovalRequest } from './agent-events.ts';

/** Who answered: the person on a card, the decision model, or the gate itself (turn-allow, timeout, abort, error). */
export type ApprovalDecider = 'person' | 'judge' | 'gate';

/** A bare decision is the person's; the asker names the judge when the decision model answered. */
export type DecideApproval = (
  request: ApprovalRequest,
  signal: AbortSignal,
) => Promise<ApprovalDecision | { decision: ApprovalDecision; by: ApprovalDecider }>;

/** Told of every decision, however it was reached, so each one reaches the event log. */
export type OnApprovalDecision = (request: ApprovalRequest, decision: ApprovalDecision, by: ApprovalDecider) => void;

/**
 * Asks once per request id (a runtime that repeats a request gets the first answer), denies on timeout, on an
 * error of the asker and when the turn is aborted, keeps "allow for this turn" until the gate's turn ends (questions
 * still open then are answered with it, their cards dropped), and
 * records every decision in order, telling `onDecision` of each.
 */
export class ApprovalGate {
  readonly decisions: { request: ApprovalRequest; decision: ApprovalDecision }[] = [];
  private readonly asked = new Map<string, Promise<ApprovalDecision>>();
  private allowedForTurn = false;
  /** Questions still open: "allow for this turn" on one answers the others too (their cards close). */
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly decide: DecideApproval,
    private readonly timeoutMs: number,
    private readonly turnSignal?: AbortSignal,
    private readonly onDecision?: OnApprovalDecision,
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
    if (this.allowedForTurn) return this.record(request, 'allow-turn', 'gate');
    const controller = new AbortController();
    const stop = () => controller.abort();
    this.turnSignal?.addEventListener('abort', stop, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    type Answer = { decision: ApprovalDecision; by: ApprovalDecider };
    const byGate: Answer = { decision: 'deny', by: 'gate' };
    const timedOut = new Promise<Answer>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(byGate);
      }, this.timeoutMs);
    });
    const aborted = new Promise<Answer>((resolve) => {
      if (controller.signal.aborted) resolve(byGate);
      controller.signal.addEventListener('abort', () => resolve(byGate), { once: true });
    });
    let allowTurn = () => undefined as void;
    const allowedMeanwhile = new Promise<Answer>((resolve) => {
      allowTurn = () => {
        resolve({ decision: 'allow-turn', by: 'gate' });
        controller.abort();
      };
    });
    this.waiting.add(allowTurn);
    const asked = this.decide(request, controller.signal).then((answer): Answer =>
      typeof answer === 'string' ? { decision: answer, by: 'person' } : answer,
    );
    let answer: Answer;
    try {
      // allowTurn settles allowedMeanwhile before it aborts the card, so the abort's deny never wins the race.
      answer = await Promise.race([allowedMeanwhile, asked, timedOut, aborted]);
    } catch {
      answer = byGate;
    } finally {
      clearTimeout(timer);
      this.turnSignal?.removeEventListener('abort', stop);
      this.waiting.delete(allowTurn);
    }
    const decision = this.record(request, answer.decision, answer.by);
    if (answer.decision === 'allow-turn' && !this.allowedForTurn) {
      this.allowedForTurn = true;
      for (const allow of [...this.waiting]) allow();
    }
    return decision;
  }

  private record(request: ApprovalRequest, decision: ApprovalDecision, by: ApprovalDecider): ApprovalDecision {
    this.decisions.push({ request, decision });
    this.onDecision?.(request, decision, by);
    return decision;
  }
}
