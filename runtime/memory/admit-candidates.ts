import type { MemoryActivity, MemoryInbox, MemoryProfile } from '../../protocol/index.ts';
import type { EventDraft } from '../../src/core/index.ts';
import {
  admitFact,
  autoAcceptedEvent,
  MAX_ADDITIONS_PER_VISIT,
  mergeFact,
  mergeRequest,
  proposeFact,
  type CandidateFact,
  type Exchange,
  type MergeRequest,
} from '../../src/core/memory/index.ts';

/** The merge model's raw answer for one candidate, or `no-answer` when the judge did not answer (rule merge). */
export type MergeAnswer = { operations: unknown } | 'no-answer';

export interface AdmitCandidatesInput {
  candidates: readonly CandidateFact[];
  exchange: Exchange;
  profile: MemoryProfile;
  /** The proposals waiting for the person: an admitted profile fact joins them unless `autoAccept`. */
  inbox: MemoryInbox;
  /** Settings' "accept profile facts automatically" (off by default): true writes admitted facts at once. */
  autoAccept: boolean;
  /** Additions already made on this canvas in this visit (the server's `AdditionsWindow`). */
  additions: number;
  /** Merge answers by candidate index. */
  answers: ReadonlyMap<number, MergeAnswer>;
  /**
   * `ask`: stop at the first admitted fact whose merge answer is missing and name its request (a model is
   * configured); `rule`: merge every missing one by the judge-less rule.
   */
  missing: 'ask' | 'rule';
  entry: (fields: Partial<MemoryActivity> & Pick<MemoryActivity, 'kind'>) => MemoryActivity;
  now: number;
  newId: () => string;
}

export interface AdmissionRun {
  profile: MemoryProfile;
  inbox: MemoryInbox;
  events: EventDraft[];
  lineIds: string[];
  /** Lines written (facts and the lines their merges reworded): each counts toward the visit's limit. */
  written: number;
  activity: MemoryActivity[];
  /** The first admitted fact whose merge answer is still needed, and what to ask the merge model. */
  need: { index: number; request: MergeRequest } | null;
}

/**
 * Rules on every candidate with the constitution and merges the admitted ones into their document (C14), pure
 * apart from the activity entries: run once without the lock to find what to ask the merge model, then again
 * under the store's lock with the answers, where `mergeFact` validates them against the profile as it is then.
 */
export function admitCandidates(input: AdmitCandidatesInput): AdmissionRun {
  const { exchange, entry, answers } = input;
  let profile = input.profile;
  let inbox = input.inbox;
  const events: EventDraft[] = [];
  const lineIds: string[] = [];
  const activity: MemoryActivity[] = [];
  let written = 0;
  for (const [index, candidate] of input.candidates.entries()) {
    const verdict = admitFact(candidate, exchange, profile, input.additions + written);
    events.push(verdict.event);
    // A credential never reaches the activity file, not even as a refused line.
    const secret = !verdict.admitted && verdict.reason === 'credential';
    const words = { text: secret ? null : candidate.text, span: secret ? null : candidate.span };
    const proposal = { path: candidate.path, category: candidate.category, ...words };
    if (!verdict.admitted) {
      activity.push(entry({ kind: 'refused', reason: verdict.reason, ...proposal }));
      continue;
    }
    if (verdict.fact.document === null) {
      // Project facts belong to a topic dossier, not the profile.
      activity.push(entry({ kind: 'admitted', reason: 'project-dossier', ...proposal }));
      continue;
    }
    if (!input.autoAccept) {
      // The review gate (issue 29.1): nothing reaches the profile until the person accepts it in the Inbox.
      const proposed = proposeFact(inbox, verdict.fact, { now: input.now, newId: input.newId });
      if (proposed) {
        inbox = proposed.inbox;
        events.push(proposed.event);
      }
      activity.push(entry({ kind: 'proposed', reason: proposed ? null : 'already-pending', ...proposal }));
      continue;
    }
    const request = mergeRequest(profile, verdict.fact);
    let answer = answers.get(index);
    if (request !== null && answer === undefined && input.missing === 'ask')
      return { profile, inbox, events, lineIds, written, activity, need: { index, request } };
    if (request === null) answer = undefined;
    if (answer === 'no-answer') activity.push(entry({ kind: 'judge-failed', reason: 'merge-no-answer' }));
    const operations = answer === undefined || answer === 'no-answer' ? null : answer.operations;
    const room = MAX_ADDITIONS_PER_VISIT - input.additions - written;
    const merged = mergeFact(profile, verdict.fact, operations, { now: input.now, newId: input.newId }, room);
    if (!merged.ok) {
      activity.push(entry({ kind: 'refused', reason: merged.error, ...proposal }));
      continue;
    }
    profile = merged.value.profile;
    events.push(merged.value.event, autoAcceptedEvent(verdict.fact, merged.value.lineId));
    written += merged.value.written;
    if (merged.value.lineId !== null) lineIds.push(merged.value.lineId);
    activity.push(
      entry({
        kind: 'admitted',
        // Why the merge model's operations were refused (the fact was appended), or `no-op`: already covered.
        reason: merged.value.fallback ?? (merged.value.operation === 'no-op' ? 'no-op' : null),
        lineId: merged.value.lineId,
        ...proposal,
      }),
    );
  }
  return { profile, inbox, events, lineIds, written, activity, need: null };
}
