import type { MemoryInbox, MemoryProfile, MemoryProposal, ProfileLine, Refusal } from '../../../protocol/index.ts';
import { MEMORY_INBOX_FORMAT, MemoryProposalSchema, RefusalSchema } from '../../../protocol/index.ts';
import type { Result } from '../result.ts';
import { failure, success } from '../result.ts';
import type { AdmittedFact } from './candidate-fact.ts';
import { findCredential } from './credential-patterns.ts';
import type { MemoryEventDraft } from './memory-events.ts';
import { mergeFact } from './merge-fact.ts';
import { normaliseText } from './normalise-text.ts';
import type { MemoryContext } from './profile.ts';
import { currentLines, duplicateLine, storableLines } from './profile.ts';
import { matchesRefusal } from './refusal-match.ts';

/** Why a decision on a proposal was refused; nothing is written. */
export type InboxDecisionCode = 'unknown-proposal' | 'empty' | 'not-one-line' | 'credential' | 'duplicate' | 'invalid';

export function emptyInbox(): MemoryInbox {
  return { format: MEMORY_INBOX_FORMAT, pending: [] };
}

/** Newest first, as the Inbox, the route and `weft memory inbox` list them (stored order is oldest first). */
export function newestFirst(inbox: MemoryInbox): MemoryProposal[] {
  return [...inbox.pending].reverse();
}

/**
 * One page of the Inbox, newest first. The cursor is the id of the last proposal given, so proposals decided or
 * added between two pages neither repeat nor shift the next page; a cursor no longer pending starts over.
 */
export function inboxPage(
  inbox: MemoryInbox,
  query: { cursor: string | null; limit: number },
): { proposals: MemoryProposal[]; nextCursor: string | null; total: number } {
  const { pending } = inbox;
  const after = query.cursor === null ? -1 : pending.findIndex((proposal) => proposal.id === query.cursor);
  // Stored oldest first: the page is read backwards from just before the cursor.
  const end = after < 0 ? pending.length : after;
  const start = Math.max(0, end - query.limit);
  const proposals = pending.slice(start, end).reverse();
  return { proposals, nextCursor: start > 0 ? (proposals.at(-1)?.id ?? null) : null, total: pending.length };
}

/**
 * Puts an admitted profile fact in the Inbox (issue 29.1). A proposal already pending with the same words is
 * not added twice (null): asking the same exchange again must not fill the Inbox with copies.
 */
export function proposeFact(
  inbox: MemoryInbox,
  fact: AdmittedFact,
  context: MemoryContext,
): { inbox: MemoryInbox; proposal: MemoryProposal; event: MemoryEventDraft } | null {
  if (fact.document === null || fact.category === 'project') return null;
  const normal = normaliseText(fact.text);
  if (inbox.pending.some((pending) => normaliseText(pending.text) === normal)) return null;
  const proposal: MemoryProposal = {
    id: context.newId(),
    at: context.now,
    text: fact.text,
    document: fact.document,
    category: fact.category,
    evidence: fact.evidence,
    span: fact.span,
    origin: fact.origin,
    updates: fact.updates,
    path: fact.path,
  };
  if (!MemoryProposalSchema.safeParse(proposal).success) return null;
  return {
    inbox: { ...inbox, pending: [...inbox.pending, proposal] },
    proposal,
    event: proposalEvent('memory-proposed', proposal, {}),
  };
}

export interface InboxDecision {
  profile: MemoryProfile;
  inbox: MemoryInbox;
  events: MemoryEventDraft[];
  /** The line the accepted proposal wrote; null for a rejection or when a current line already said it. */
  lineId: string | null;
}

/**
 * The person accepts a proposal (or Settings accepts it automatically: `auto`). Unedited, it is written like an
 * admitted fact by the judge-less rule (it replaces the line it `updates` if that is still current, else it is
 * added) with its evidence and span. Edited, the person's words are the line (`manual`, no span), kept at the
 * proposal's origin so it still leads to the turn.
 */
export function acceptProposal(
  profile: MemoryProfile,
  inbox: MemoryInbox,
  proposalId: string,
  edited: string | null,
  context: MemoryContext,
  auto = false,
): Result<InboxDecision, InboxDecisionCode> {
  const proposal = inbox.pending.find((pending) => pending.id === proposalId);
  if (!proposal) return failure('unknown-proposal');
  const rest = { ...inbox, pending: inbox.pending.filter((pending) => pending !== proposal) };
  const text = edited === null ? proposal.text : edited.trim();
  const isEdit = edited !== null && text !== proposal.text;
  const decided = proposalEvent('memory-accepted', proposal, { edited: isEdit, auto });
  if (!isEdit) {
    // A current line says it already (accepted once, its inbox write lost; or written meanwhile): nothing to add.
    if (duplicateLine(profile, text)) return success({ profile, inbox: rest, events: [decided], lineId: null });
    const merged = mergeFact(profile, factOf(proposal), null, context);
    if (!merged.ok) return failure('invalid');
    return success({
      profile: merged.value.profile,
      inbox: rest,
      events: [decided, merged.value.event],
      lineId: merged.value.lineId,
    });
  }
  if (text.length === 0) return failure('empty');
  if (/[\r\n]/.test(text)) return failure('not-one-line');
  if (findCredential(text) !== null) return failure('credential');
  if (duplicateLine(profile, text)) return failure('duplicate');
  const replaced = currentLines(profile, proposal.document).find((line) => line.id === proposal.updates);
  const line: ProfileLine = {
    id: context.newId(),
    text,
    evidence: 'manual',
    span: null,
    origin: proposal.origin,
    createdAt: context.now,
    supersedes: replaced ? [replaced.id] : [],
    ended: null,
  };
  if (!storableLines(profile, [line])) return failure('invalid');
  const lines = profile.documents[proposal.document].flatMap((each) =>
    each === replaced
      ? [{ ...each, ended: { reason: 'replaced' as const, at: context.now, by: line.id } }, line]
      : [each],
  );
  return success({
    profile: {
      ...profile,
      documents: { ...profile.documents, [proposal.document]: replaced ? lines : [...lines, line] },
    },
    inbox: rest,
    events: [decided],
    lineId: line.id,
  });
}

/**
 * The person rejects a proposal: it leaves the Inbox and its words become a refusal, matched like a deleted
 * line's (`matchesRefusal`), so the same proposal — or a rewording of it — is never proposed again.
 */
export function rejectProposal(
  profile: MemoryProfile,
  inbox: MemoryInbox,
  proposalId: string,
  context: MemoryContext,
): Result<InboxDecision, InboxDecisionCode> {
  const proposal = inbox.pending.find((pending) => pending.id === proposalId);
  if (!proposal) return failure('unknown-proposal');
  const rest = { ...inbox, pending: inbox.pending.filter((pending) => pending !== proposal) };
  const decided = proposalEvent('memory-rejected', proposal, {});
  // Already refused (a rewording rejected before): the refusal that exists keeps it out.
  if (matchesRefusal(profile.refusals, proposal.text) !== null)
    return success({ profile, inbox: rest, events: [decided], lineId: null });
  const refusal: Refusal = {
    id: context.newId(),
    kind: 'rejected-proposal',
    text: proposal.text,
    lineId: null,
    at: context.now,
  };
  if (!RefusalSchema.safeParse(refusal).success) return failure('invalid');
  return success({
    profile: { ...profile, refusals: [...profile.refusals, refusal] },
    inbox: rest,
    events: [decided],
    lineId: null,
  });
}

function factOf(proposal: MemoryProposal): AdmittedFact {
  return {
    text: proposal.text,
    category: proposal.category,
    document: proposal.document,
    evidence: proposal.evidence,
    span: proposal.span,
    origin: proposal.origin,
    updates: proposal.updates,
    path: proposal.path,
  };
}

/** Ids, kinds and flags only: a proposal's words never enter the log (C10). */
function proposalEvent(
  op: 'memory-proposed' | 'memory-accepted' | 'memory-rejected',
  proposal: MemoryProposal,
  flags: Record<string, boolean>,
): MemoryEventDraft {
  return {
    op,
    objectId: proposal.id,
    meta: {
      document: proposal.document,
      category: proposal.category,
      path: proposal.path,
      canvasId: proposal.origin.canvasId,
      nodeId: proposal.origin.nodeId,
      commitHash: proposal.origin.commitHash,
      ...flags,
    },
  };
}

/** A fact written without review because Settings accept profile facts automatically: still a decision, logged. */
export function autoAcceptedEvent(fact: AdmittedFact, lineId: string | null): MemoryEventDraft {
  return {
    op: 'memory-accepted',
    objectId: lineId ?? '',
    meta: {
      document: fact.document,
      category: fact.category,
      path: fact.path,
      canvasId: fact.origin.canvasId,
      nodeId: fact.origin.nodeId,
      commitHash: fact.origin.commitHash,
      edited: false,
      auto: true,
    },
  };
}
