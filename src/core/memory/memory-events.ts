import type { LineEvidence, MemoryDocumentName, MemoryEventOp, Refusal } from '../../../protocol/index.ts';
import type { EventDraft } from '../event-log.ts';
import type { CandidateFact } from './candidate-fact.ts';
import type { ExchangeOrigin } from './exchange.ts';
import type { AdmissionCode, MergeFallbackCode } from './verdict-codes.ts';

/** A memory event draft: ids, kinds, codes and counts only. A fact's text never enters the log (C10). */
export interface MemoryEventDraft extends EventDraft {
  op: MemoryEventOp;
}

export function judgedEvent(
  candidate: CandidateFact,
  origin: ExchangeOrigin,
  reason: AdmissionCode | null,
): MemoryEventDraft {
  return {
    op: 'memory-judged',
    objectId: origin.nodeId,
    meta: {
      verdict: reason === null ? 'admitted' : 'refused',
      reason,
      category: candidate.category,
      path: candidate.path,
      canvasId: origin.canvasId,
      commitHash: origin.commitHash,
    },
  };
}

export type WriteOperation = 'add' | 'replace' | 'append' | 'no-op';

export function writtenEvent(written: {
  lineId: string | null;
  document: MemoryDocumentName;
  evidence: LineEvidence | null;
  operation: WriteOperation;
  replaced: number;
  rewritten: number;
  fallback: MergeFallbackCode | null;
  canvasId: string | null;
}): MemoryEventDraft {
  const { lineId, ...meta } = written;
  return { op: 'memory-written', objectId: lineId ?? '', meta };
}

export function undoneEvent(lineIds: readonly string[], refusalId: string | null): MemoryEventDraft {
  return { op: 'memory-undone', objectId: lineIds[0] ?? '', meta: { lines: lineIds.length, refusalId } };
}

export function refusedByPersonEvent(refusal: Refusal): MemoryEventDraft {
  return { op: 'memory-refused-by-person', objectId: refusal.id, meta: { kind: refusal.kind, lineId: refusal.lineId } };
}

export function refusalLiftedEvent(refusal: Refusal): MemoryEventDraft {
  return { op: 'memory-refusal-lifted', objectId: refusal.id, meta: { kind: refusal.kind } };
}

export function editedEvent(
  lineId: string,
  action: 'add' | 'edit' | 'delete',
  document: MemoryDocumentName,
): MemoryEventDraft {
  return { op: 'memory-edited', objectId: lineId, meta: { action, document } };
}

/** The per-canvas [Memory] switch turned on or off. */
export function switchedEvent(canvasId: string, enabled: boolean): MemoryEventDraft {
  return { op: 'memory-switched', objectId: canvasId, meta: { enabled } };
}

/** A judge refused because the server recorded no commit for the version (issue 27.3): ids only, never text. */
export function unrecordedEvent(claim: {
  canvasId: string;
  nodeId: string;
  versionId: string;
  commitHash: string;
}): MemoryEventDraft {
  const { canvasId, nodeId, versionId, commitHash } = claim;
  return { op: 'memory-exchange-unrecorded', objectId: nodeId, meta: { canvasId, versionId, commitHash } };
}

/** A Markdown import: how many lines and refusals the profile holds after it (counts only). */
export function importedEvent(lines: number, refusals: number, importedOver = 0): MemoryEventDraft {
  // `importedOver`: current lines the import left out, kept as history ended `imported-over`.
  return { op: 'memory-imported', objectId: '', meta: { lines, refusals, importedOver } };
}

/** A put-aside log line as the journal records it: the content key (a hash, never the words), kind, reason, origin. */
export interface PutAsideRecord {
  rev: number;
  op: 'put-aside' | 'restored';
  key: string;
  kind: string;
  reason: string;
  origin: { canvasId: string; nodeId: string } | { topicId: string; sentenceId: string } | null;
}

/**
 * A tombstone recorded or lifted (issue 29.2): journaled so a restore, like a put-aside, is on the record. Its
 * `objectId` is the key keyed with the home's own secret (`objectId`, given by the caller): the content key is an
 * unsalted hash of often short words, which a dictionary would recover; the keyed one is the same for the same key
 * within the home, so a restore names the put-aside it lifts.
 */
export function putAsideEvent(record: PutAsideRecord, objectId: string): MemoryEventDraft {
  return {
    op: record.op === 'put-aside' ? 'memory-put-aside' : 'memory-restored',
    objectId,
    meta: { kind: record.kind, reason: record.reason, rev: record.rev, ...(record.origin ?? {}) },
  };
}

/** A dossier sentence proposed, accepted or rejected (issue 29.1): the topic, the section and counts, never the words. */
export function sentenceEvent(
  op: 'memory-proposed' | 'memory-accepted' | 'memory-rejected',
  proposal: { id: string; topicId: string; section: string; citations: readonly string[] },
  extra: Record<string, string | number | boolean | null> = {},
): MemoryEventDraft {
  return {
    op,
    objectId: proposal.id,
    meta: {
      kind: 'dossier-sentence',
      topicId: proposal.topicId,
      section: proposal.section,
      citations: proposal.citations.length,
      ...extra,
    },
  };
}
