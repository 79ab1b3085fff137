import type { MemoryProfile } from '../../../protocol/index.ts';
import type { AdmittedFact, CandidateFact } from './candidate-fact.ts';
import type { Exchange } from './exchange.ts';
import { findCredential } from './credential-patterns.ts';
import { findEvidence } from './find-evidence.ts';
import { identityClauses, notDurable, statesIdentity } from './first-person.ts';
import type { MemoryEventDraft } from './memory-events.ts';
import { judgedEvent } from './memory-events.ts';
import { normaliseText } from './normalise-text.ts';
import { currentLines, documentFor, duplicateLine } from './profile.ts';
import { matchesRefusal } from './refusal-match.ts';
import type { AdmissionCode } from './verdict-codes.ts';

/** At most this many facts are added per canvas per visit: a chatty visit cannot flood the profile. */
export const MAX_ADDITIONS_PER_VISIT = 3;

export type AdmissionVerdict =
  | { admitted: true; fact: AdmittedFact; event: MemoryEventDraft }
  | { admitted: false; reason: AdmissionCode; event: MemoryEventDraft };

/**
 * The constitution (C14), in code: whatever a judge says, a fact enters memory only through here.
 * `additionsThisVisit` is how many facts this canvas already added in the current visit (the caller counts).
 */
export function admitFact(
  candidate: CandidateFact,
  exchange: Exchange,
  profile: MemoryProfile,
  additionsThisVisit: number,
): AdmissionVerdict {
  const reason = refusalReason(candidate, exchange, profile, additionsThisVisit);
  const event = judgedEvent(candidate, exchange.origin, reason);
  if (reason !== null) return { admitted: false, reason, event };
  const origin = exchange.origin;
  return {
    admitted: true,
    event,
    fact: {
      text: candidate.text.trim(),
      category: candidate.category,
      document: documentFor(candidate.category),
      evidence: candidate.stated ? 'stated' : 'inferred',
      span: candidate.span.trim(),
      origin: {
        canvasId: origin.canvasId,
        nodeId: origin.nodeId,
        versionId: origin.versionId,
        commitHash: origin.commitHash,
        at: origin.at,
      },
      updates: candidate.updates,
      path: candidate.path,
    },
  };
}

function refusalReason(
  candidate: CandidateFact,
  exchange: Exchange,
  profile: MemoryProfile,
  additionsThisVisit: number,
): AdmissionCode | null {
  const text = candidate.text.trim();
  if (text.length === 0) return 'empty-fact';
  if (/[\r\n]/.test(text)) return 'not-one-line';
  if (findCredential(text) !== null || findCredential(candidate.span) !== null) return 'credential';
  const evidence = findEvidence(exchange, candidate.span);
  if (!evidence.ok) return evidence.code;
  if (candidate.category === 'identity' && !identityStated(candidate)) return 'identity-not-stated';
  if (notDurable(candidate.span) !== null || notDurable(text) !== null) return 'not-durable';
  if (matchesRefusal(profile.refusals, text) || matchesRefusal(profile.refusals, candidate.span))
    return 'refused-by-person';
  if (candidate.updates !== null) {
    const document = documentFor(candidate.category);
    const target = document && currentLines(profile, document).some((line) => line.id === candidate.updates);
    if (!target) return 'unknown-update-target';
  }
  if (duplicateLine(profile, text)) return 'duplicate';
  if (additionsThisVisit >= MAX_ADDITIONS_PER_VISIT) return 'visit-limit';
  return null;
}

/** Capitalised words a fact may start with that name nobody. */
const SENTENCE_STARTERS = new Set(
  "i i'm my me call the a an user user's person person's they their she her he his is was has works worked lives lived named called goes born speaks studies".split(
    ' ',
  ),
);

/**
 * Identity only when the person stated it: their span says who they are in the first person, and every name the
 * fact gives (a capitalised word other than a sentence starter) is in what they said they are. "Tell me about Christophe"
 * never makes "The user is Christophe", nor does "I am Ana and I work with Christophe".
 */
function identityStated(candidate: CandidateFact): boolean {
  if (!candidate.stated || !statesIdentity(candidate.span)) return false;
  const clauses = identityClauses(candidate.span).join(' ');
  const names = candidate.text
    .trim()
    .split(/\s+/)
    .filter((word) => /^\p{Lu}/u.test(word))
    .map((name) => normaliseText(name).replace(/[^\p{L}\p{N}'-]/gu, ''))
    .filter((name) => name.length > 0 && !SENTENCE_STARTERS.has(name));
  return names.every((name) => new RegExp(`(?:^|[^\\p{L}])${escapeRegExp(name)}(?:$|[^\\p{L}])`, 'u').test(clauses));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
