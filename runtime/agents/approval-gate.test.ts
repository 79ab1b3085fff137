import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from './agent-events.ts';
import { ApprovalGate, type DecideApproval } from './approval-gate.ts';

const request = (requestId: string): ApprovalRequest => ({
  requestId,
  toolCallId: `call-${requestId}`,
  toolName: 'write',
  args: { path: '/elsewhere/x' },
  leaves: '/elsewhere/x',
  reason: 'path-leaves-folder',
});

describe('ApprovalGate', () => {
  it('asks once per request id: a repeated request gets the first answer', async () => {
    let asked = 0;
    const gate = new ApprovalGate(() => Promise.resolve((asked += 1) === 1 ? 'allow-once' : 'deny'), 1000);
    expect(await gate.ask(request('r1'))).toBe('allow-once');
    expect(await gate.ask(request('r1'))).toBe('allow-once');
    expect(asked).toBe(1);
    expect(gate.decisions).toHaveLength(1);
  });

  it('denies when nobody answers in time, and when the asker fails', async () => {
    const silent = new ApprovalGate(() => new Promise(() => undefined), 20);
    expect(await silent.ask(request('r1'))).toBe('deny');
    const failing = new ApprovalGate(() => Promise.reject(new Error('card store down')), 1000);
    expect(await failing.ask(request('r2'))).toBe('deny');
    expect(failing.decisions).toEqual([{ request: request('r2'), decision: 'deny' }]);
  });

  it('denies an open question when the turn is aborted, and tells the asker to drop its card', async () => {
    const turn = new AbortController();
    let cardSignal: AbortSignal | undefined;
    const gate = new ApprovalGate(
      (_request, signal) => {
        cardSignal = signal;
        return new Promise(() => undefined);
      },
      10_000,
      turn.signal,
    );
    const answer = gate.ask(request('r1'));
    turn.abort();
    expect(await answer).toBe('deny');
    expect(cardSignal?.aborted).toBe(true);
  });

  it('after allow for this turn, later requests of the turn are allowed without asking, and recorded', async () => {
    let asked = 0;
    const gate = new ApprovalGate(() => {
      asked += 1;
      return Promise.resolve('allow-turn');
    }, 1000);
    await gate.ask(request('r1'));
    expect(await gate.ask(request('r2'))).toBe('allow-turn');
    expect(asked).toBe(1);
    expect(gate.decisions.map((entry) => entry.request.requestId)).toEqual(['r1', 'r2']);
  });

  it('allow for this turn on one card answers the cards still open in the turn, each decision told', async () => {
    const told: [string, string, string][] = [];
    const cards = new Map<string, { answer: (decision: 'allow-turn') => void; signal: AbortSignal }>();
    const gate = new ApprovalGate(
      (asked, signal) => new Promise((resolve) => cards.set(asked.requestId, { answer: resolve, signal })),
      10_000,
      undefined,
      (asked, decision, by) => told.push([asked.requestId, decision, by]),
    );
    const first = gate.ask(request('r1'));
    const second = gate.ask(request('r2'));
    await Promise.resolve();
    cards.get('r1')!.answer('allow-turn');
    expect(await first).toBe('allow-turn');
    expect(await second).toBe('allow-turn');
    // The second card is dropped: nobody has to answer it any more.
    expect(cards.get('r2')!.signal.aborted).toBe(true);
    expect(told).toEqual([
      ['r1', 'allow-turn', 'person'],
      ['r2', 'allow-turn', 'gate'],
    ]);
  });

  it('tells onDecision of every decision with who made it: person, judge, turn-allow, timeout', async () => {
    const told: [string, string, string][] = [];
    const answers: Record<string, () => ReturnType<DecideApproval>> = {
      r1: () => Promise.resolve({ decision: 'allow-once', by: 'judge' }),
      r2: () => new Promise(() => undefined),
      r3: () => Promise.resolve('allow-turn'),
    };
    const gate = new ApprovalGate(
      (asked) => answers[asked.requestId]!(),
      20,
      undefined,
      (asked, decision, by) => told.push([asked.requestId, decision, by]),
    );
    await gate.ask(request('r1'));
    await gate.ask(request('r2'));
    await gate.ask(request('r3'));
    // Answered inside the gate, without asking: still told, so the event log and the version keep it.
    await gate.ask(request('r4'));
    await gate.ask(request('r4'));
    expect(told).toEqual([
      ['r1', 'allow-once', 'judge'],
      ['r2', 'deny', 'gate'],
      ['r3', 'allow-turn', 'person'],
      ['r4', 'allow-turn', 'gate'],
    ]);
  });
});
