import type { MemoryDocumentName, MemoryProfile, ProfileLine, Refusal } from '../../../protocol/index.ts';
import { MEMORY_DOCUMENTS, RefusalSchema } from '../../../protocol/index.ts';
import { canonicalJson } from '../hashing.ts';
import type { Result } from '../result.ts';
import { failure, success } from '../result.ts';
import { findCredential } from './credential-patterns.ts';
import type { MemoryEventDraft } from './memory-events.ts';
import { editedEvent, refusalLiftedEvent, refusedByPersonEvent, undoneEvent } from './memory-events.ts';
import type { MemoryContext } from './profile.ts';
import { duplicateLine, findLine, manualOrigin, storableLines } from './profile.ts';
import { matchesRefusal } from './refusal-match.ts';

/** Why a person's edit was refused; the stored profile is unchanged. */
export type PersonEditCode =
  | 'empty'
  | 'not-one-line'
  | 'credential'
  | 'duplicate'
  | 'unknown-line'
  | 'unknown-refusal'
  | 'nothing-to-undo'
  | 'changed-since'
  | 'invalid';

export interface PersonEdit {
  profile: MemoryProfile;
  events: MemoryEventDraft[];
}

function checkText(profile: MemoryProfile, text: string): PersonEditCode | null {
  if (text.length === 0) return 'empty';
  if (/[\r\n]/.test(text)) return 'not-one-line';
  // Keys never enter the profile, whoever types them: it rides every request.
  if (findCredential(text) !== null) return 'credential';
  if (duplicateLine(profile, text)) return 'duplicate';
  return null;
}

function manualLine(text: string, supersedes: string[], context: MemoryContext): ProfileLine {
  const origin = manualOrigin(context.now);
  return {
    id: context.newId(),
    text,
    evidence: 'manual',
    span: null,
    origin,
    createdAt: context.now,
    supersedes,
    ended: null,
  };
}

function withLines(profile: MemoryProfile, document: MemoryDocumentName, lines: ProfileLine[]): MemoryProfile {
  return { ...profile, documents: { ...profile.documents, [document]: lines } };
}

/** The person adds a line by hand (evidence `manual`). */
export function addLine(
  profile: MemoryProfile,
  document: MemoryDocumentName,
  text: string,
  context: MemoryContext,
): Result<PersonEdit & { lineId: string }, PersonEditCode> {
  const trimmed = text.trim();
  const code = checkText(profile, trimmed);
  if (code) return failure(code);
  const line = manualLine(trimmed, [], context);
  if (!storableLines(profile, [line])) return failure('invalid');
  return success({
    profile: withLines(profile, document, [...profile.documents[document], line]),
    lineId: line.id,
    events: [editedEvent(line.id, 'add', document)],
  });
}

/** The person rewrites a current line: the new words are `manual`, the old line is kept as replaced history. */
export function editLine(
  profile: MemoryProfile,
  lineId: string,
  text: string,
  context: MemoryContext,
): Result<PersonEdit & { lineId: string }, PersonEditCode> {
  const found = findLine(profile, lineId);
  if (!found || found.line.ended !== null) return failure('unknown-line');
  const trimmed = text.trim();
  const code = checkText(profile, trimmed);
  if (code) return failure(code);
  const line = manualLine(trimmed, [lineId], context);
  if (!storableLines(profile, [line])) return failure('invalid');
  const lines = [...profile.documents[found.document]];
  lines[found.index] = { ...found.line, ended: { reason: 'replaced', at: context.now, by: line.id } };
  lines.splice(found.index + 1, 0, line);
  // Words edited away are taken back like a deletion, so no judge brings them back; an edit that still says the
  // old fact (a refinement) refuses nothing, or the new line would be both current and refused.
  const refusal: Refusal = {
    id: context.newId(),
    kind: 'deleted-line',
    text: found.line.text,
    lineId,
    at: context.now,
  };
  const refuses = matchesRefusal([refusal], trimmed) === null;
  if (refuses && !RefusalSchema.safeParse(refusal).success) return failure('invalid');
  const edited = withLines(profile, found.document, lines);
  return success({
    profile: refuses ? { ...edited, refusals: [...profile.refusals, refusal] } : edited,
    lineId: line.id,
    events: [editedEvent(line.id, 'edit', found.document), ...(refuses ? [refusedByPersonEvent(refusal)] : [])],
  });
}

/**
 * The person deletes a current line: it ends (kept as history) and its text becomes a refusal, so no judge,
 * rule or merge can bring it back.
 */
export function deleteLine(
  profile: MemoryProfile,
  lineId: string,
  context: MemoryContext,
): Result<PersonEdit & { refusal: Refusal }, PersonEditCode> {
  const found = findLine(profile, lineId);
  if (!found || found.line.ended !== null) return failure('unknown-line');
  const lines = [...profile.documents[found.document]];
  lines[found.index] = { ...found.line, ended: { reason: 'deleted', at: context.now } };
  const refusal: Refusal = {
    id: context.newId(),
    kind: 'deleted-line',
    text: found.line.text,
    lineId,
    at: context.now,
  };
  if (!RefusalSchema.safeParse(refusal).success) return failure('invalid');
  return success({
    profile: { ...withLines(profile, found.document, lines), refusals: [...profile.refusals, refusal] },
    refusal,
    events: [editedEvent(lineId, 'delete', found.document), refusedByPersonEvent(refusal)],
  });
}

/** The person says never to store anything about a topic. */
export function refuseTopic(
  profile: MemoryProfile,
  topic: string,
  context: MemoryContext,
): Result<PersonEdit & { refusal: Refusal }, PersonEditCode> {
  const text = topic.trim();
  if (text.length === 0) return failure('empty');
  if (/[\r\n]/.test(text)) return failure('not-one-line');
  const refusal: Refusal = { id: context.newId(), kind: 'topic', text, lineId: null, at: context.now };
  if (!RefusalSchema.safeParse(refusal).success) return failure('invalid');
  return success({
    profile: { ...profile, refusals: [...profile.refusals, refusal] },
    refusal,
    events: [refusedByPersonEvent(refusal)],
  });
}

/** The person lifts a refusal: the fact may be admitted again. */
export function liftRefusal(profile: MemoryProfile, refusalId: string): Result<PersonEdit, PersonEditCode> {
  const refusal = profile.refusals.find((candidate) => candidate.id === refusalId);
  if (!refusal) return failure('unknown-refusal');
  return success({
    profile: { ...profile, refusals: profile.refusals.filter((candidate) => candidate !== refusal) },
    events: [refusalLiftedEvent(refusal)],
  });
}

/**
 * Undo of an admission: the documents go back to exactly what they were `before` (lines, history, order), and
 * the fact's text becomes a refusal. Refused when the profile changed since the write (`changed-since`), so an
 * undo never throws away a later edit.
 */
export function undoWrite(
  before: MemoryProfile,
  after: MemoryProfile,
  current: MemoryProfile,
  lineId: string | null,
  context: MemoryContext,
): Result<PersonEdit & { refusal: Refusal }, PersonEditCode> {
  const written = lineId === null ? null : findLine(after, lineId);
  if (!written) return failure('nothing-to-undo');
  if (canonicalJson(current.documents) !== canonicalJson(after.documents)) return failure('changed-since');
  const refusal: Refusal = {
    id: context.newId(),
    kind: 'undone-admission',
    text: written.line.text,
    lineId: written.line.id,
    at: context.now,
  };
  if (!RefusalSchema.safeParse(refusal).success) return failure('invalid');
  const kept = new Set(MEMORY_DOCUMENTS.flatMap((document) => before.documents[document].map((line) => line.id)));
  const removed = MEMORY_DOCUMENTS.flatMap((document) => after.documents[document])
    .map((line) => line.id)
    .filter((id) => !kept.has(id));
  return success({
    profile: { ...current, documents: before.documents, refusals: [...current.refusals, refusal] },
    refusal,
    events: [undoneEvent(removed, refusal.id), refusedByPersonEvent(refusal)],
  });
}
