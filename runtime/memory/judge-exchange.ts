import type { DecideRequest, DecideResponse, MemoryActivity, MemoryJudgeRequest } from '../../protocol/index.ts';
import type { EventDraft } from '../../src/core/index.ts';
import {
  candidateFromJudgement,
  categoryRequest,
  coversRequest,
  durableRequest,
  isDurable,
  judgedSentences,
  parseMergeAnswer,
  pickCategory,
  ruleDecide,
  statedRequest,
  type CandidateFact,
  type Exchange,
  type SentenceJudgement,
} from '../../src/core/memory/index.ts';
import type { MemoryInbox, MemoryProfile } from '../../protocol/index.ts';
import type { MemoryStore, StoredMemory } from './memory-store.ts';
import type { UndoBook } from './undo-book.ts';
import type { AdditionsWindow } from './additions-window.ts';
import { admitCandidates, type MergeAnswer } from './admit-candidates.ts';

export interface JudgeExchangeDependencies {
  store: MemoryStore;
  /** The decision endpoint (`DecisionJudge.decide`): six-second rule fallback, one-minute cooldown. */
  decide: (request: DecideRequest) => Promise<DecideResponse>;
  /** The same judge's free-text answer (`DecisionJudge.compose`) for merge operations; null when it did not answer. */
  compose: (system: string, prompt: string) => Promise<{ text: string } | null>;
  /** The configured decision model; null runs the rule path and sends nothing anywhere. */
  judgeModelId: string | null;
  /** Settings' "accept profile facts automatically"; false puts admitted facts in the Inbox (issue 29.1). */
  autoAccept: boolean;
  visits: AdditionsWindow;
  undos: UndoBook;
  now: () => number;
  newId: () => string;
}

export interface JudgedExchange {
  path: 'judge' | 'rule';
  activity: MemoryActivity[];
  events: EventDraft[];
  undo: { id: string; lineIds: string[] } | null;
  revision: string;
}

/** Asks the judge about every sentence; null when any decision fell back (the rule path then decides). */
async function judgeCandidates(
  exchange: Exchange,
  profile: MemoryProfile,
  decide: JudgeExchangeDependencies['decide'],
): Promise<CandidateFact[] | null> {
  const candidates: CandidateFact[] = [];
  const ask = async (request: DecideRequest) => {
    const answer = await decide(request);
    return answer.fallback ? null : answer.probabilities;
  };
  for (const sentence of judgedSentences(exchange)) {
    const durable = await ask(durableRequest(exchange, sentence));
    if (!durable) return null;
    const judgement: SentenceJudgement = { durable };
    if (isDurable(durable)) {
      const category = await ask(categoryRequest(exchange, sentence));
      const stated = await ask(statedRequest(exchange, sentence));
      if (!category || !stated) return null;
      judgement.category = category;
      judgement.stated = stated;
      const picked = pickCategory(category);
      const coversAsk = picked ? coversRequest(exchange, sentence, profile, picked) : null;
      if (coversAsk) {
        const covers = await ask(coversAsk);
        if (!covers) return null;
        judgement.covers = covers;
      }
    }
    const candidate = candidateFromJudgement(sentence, judgement);
    if (candidate) candidates.push(candidate);
  }
  return candidates;
}

/**
 * The memory judge after an ordinary ask (C13–C14), on the exchange as the stored canvas records it
 * (`exchangeFromCanvas`; the request only names it; the server counts the canvas's additions itself): candidates from the judge (or the rule path without one, or
 * when it does not answer), each ruled on by the constitution, admitted facts merged into their document, every
 * decision an event and an activity entry. The caller does not wait for this before showing the answer.
 */
export async function judgeExchange(
  request: MemoryJudgeRequest,
  exchange: Exchange,
  dependencies: JudgeExchangeDependencies,
): Promise<JudgedExchange> {
  const { store, now, newId } = dependencies;
  const before = await store.read();
  const activity: MemoryActivity[] = [];
  const entry = (fields: Partial<MemoryActivity> & Pick<MemoryActivity, 'kind'>): MemoryActivity => ({
    id: newId(),
    at: now(),
    path: null,
    reason: null,
    category: null,
    text: null,
    span: null,
    canvasId: request.canvasId,
    nodeId: request.nodeId,
    commitHash: request.commitHash,
    lineId: null,
    ...fields,
  });
  let candidates: CandidateFact[] | null = null;
  if (dependencies.judgeModelId !== null) {
    candidates = await judgeCandidates(exchange, before.profile, dependencies.decide);
    // Visible, not silent: the judge did not answer (timeout, error, unreadable, or cooling down for a minute).
    if (candidates === null) activity.push(entry({ kind: 'judge-failed', reason: 'no-answer' }));
  }
  const path = candidates === null ? 'rule' : 'judge';
  const proposed = candidates ?? ruleDecide(exchange);

  // On the judge path the same judge merges each admitted fact (operations against line ids, C14 item 4); on the
  // rule path the judge-less rule does. Merge answers are asked before the store's lock (a model call never holds
  // up a person's edit), each against the profile as this exchange's earlier facts leave it. Every run hands out
  // the same line ids in the same order, so an answer naming a line written earlier in the exchange still fits.
  const answers = new Map<number, MergeAnswer>();
  const lineIds: string[] = [];
  const run = (profile: MemoryProfile, inbox: MemoryInbox, missing: 'ask' | 'rule') => {
    let next = 0;
    const lineId = () => (lineIds[next++] ??= newId());
    return admitCandidates({
      candidates: proposed,
      exchange,
      profile,
      inbox,
      autoAccept: dependencies.autoAccept,
      additions: dependencies.visits.count(request.canvasId),
      answers,
      missing,
      entry,
      now: now(),
      newId: lineId,
    });
  };
  if (path === 'judge')
    for (
      let planned = run(before.profile, before.inbox, 'ask');
      planned.need;
      planned = run(before.profile, before.inbox, 'ask')
    ) {
      const { system, prompt } = planned.need.request;
      const answer = await dependencies.compose(system, prompt);
      answers.set(planned.need.index, answer === null ? 'no-answer' : { operations: parseMergeAnswer(answer.text) });
    }

  const { stored, result } = await store.update(null, (current: StoredMemory) => {
    // Under the lock, on the profile as it is now: mergeFact validates the answers against it.
    const admitted = run(current.profile, current.inbox, 'rule');
    // Counted under the lock, so the next exchange on this canvas sees these additions (a failed write still
    // counts them: a refused addition beats one too many).
    for (let line = 0; line < admitted.written; line += 1) dependencies.visits.add(request.canvasId);
    activity.push(...admitted.activity);
    const changed = admitted.profile !== current.profile;
    return {
      change: {
        ...(changed ? { profile: admitted.profile } : {}),
        ...(admitted.inbox !== current.inbox ? { inbox: admitted.inbox } : {}),
        events: admitted.events,
        activity: [...activity].reverse(),
      },
      result: {
        events: admitted.events,
        lineIds: admitted.lineIds,
        written: admitted.written,
        before: current.profile,
        after: admitted.profile,
      },
    };
  });
  const undo =
    result.lineIds.length > 0
      ? {
          id: dependencies.undos.put(result.before, result.after, result.lineIds, request.canvasId),
          lineIds: result.lineIds,
        }
      : null;
  return { path, activity, events: result.events, undo, revision: stored.revision };
}
