import type { MemoryDocumentName, MemoryProfile, MergeOperation, ProfileLine } from '../../../protocol/index.ts';
import { MergeOperationsSchema } from '../../../protocol/index.ts';
import type { Result } from '../result.ts';
import { failure, success } from '../result.ts';
import type { AdmittedFact } from './candidate-fact.ts';
import { findCredential } from './credential-patterns.ts';
import type { MemoryEventDraft, WriteOperation } from './memory-events.ts';
import { writtenEvent } from './memory-events.ts';
import { contentWords, normaliseText } from './normalise-text.ts';
import type { MemoryContext } from './profile.ts';
import { currentLines, storableLines } from './profile.ts';
import { matchesRefusal } from './refusal-match.ts';
import type { MergeFallbackCode } from './verdict-codes.ts';

export interface MergeOutcome {
  profile: MemoryProfile;
  /** The line the fact wrote; null when the merge said the document already covers it (`no-op`). */
  lineId: string | null;
  operation: WriteOperation;
  /** Why the model's operations were refused, when the fact was appended instead. */
  fallback: MergeFallbackCode | null;
  event: MemoryEventDraft;
  /** How many lines it wrote (the fact's and any rewritten one): each counts toward the visit's limit. */
  written: number;
}

/**
 * Writes an admitted fact into its document. `operations` is the merge model's raw output (validated here) or
 * null when there is no merge model: then the fact replaces the line it `updates`, or is added. Operations that
 * fail any check are refused as a whole and the fact is appended as its own line, with the reason.
 * Only the line that says the fact gets its evidence and span; any other line the operations write is
 * `rewritten`. Replaced lines are kept, ended, as history. Refused with `invalid` (profile untouched) when a line
 * it would store fails the schema or reuses an id: a bad injected id or origin never reaches the file.
 * `room` is how many lines this visit may still add: operations that write more are refused (`visit-limit`).
 */
export function mergeFact(
  profile: MemoryProfile,
  fact: AdmittedFact,
  operations: unknown,
  context: MemoryContext,
  room = Number.POSITIVE_INFINITY,
): Result<MergeOutcome, 'not-a-profile-fact' | 'invalid'> {
  const document = fact.document;
  if (document === null) return failure('not-a-profile-fact');
  const raw =
    operations ??
    (fact.updates !== null
      ? { operations: [{ op: 'replace', lineIds: [fact.updates], text: fact.text }] }
      : { operations: [{ op: 'add', text: fact.text }] });
  const parsed = MergeOperationsSchema.safeParse(raw);
  const checked = parsed.success ? checkOperations(profile, document, fact, parsed.data.operations, room) : 'malformed';
  if (typeof checked !== 'string' && checked.length === 1 && checked[0]!.op === 'no-op') {
    const event = writtenEvent({
      lineId: null,
      document,
      evidence: null,
      operation: 'no-op',
      replaced: 0,
      rewritten: 0,
      fallback: null,
      canvasId: fact.origin.canvasId,
    });
    return success({ profile, lineId: null, operation: 'no-op', fallback: null, event, written: 0 });
  }
  const { outcome, written } =
    typeof checked === 'string'
      ? append(profile, document, fact, context, checked)
      : apply(profile, document, fact, checked, context);
  return storableLines(profile, written) ? success(outcome) : failure('invalid');
}

/** A merge result and the new lines it stores (checked before anything is returned). */
interface Written {
  outcome: MergeOutcome;
  written: ProfileLine[];
}

type WritingOperation = Exclude<MergeOperation, { op: 'no-op' }>;

/**
 * The operations when every check passes, else the first reason they fail. The model may only say the fact and
 * reword the lines it replaces: an `add` must be the fact itself (`unrelated-add`), and a line other than the fact
 * must be a `replace` whose content words all come from the replaced lines or the fact (`new-words`), so a merge
 * can never introduce anything the person did not say.
 */
function checkOperations(
  profile: MemoryProfile,
  document: MemoryDocumentName,
  fact: AdmittedFact,
  operations: readonly MergeOperation[],
  room: number,
): MergeOperation[] | MergeFallbackCode {
  if (operations.some((operation) => operation.op === 'no-op'))
    return operations.length === 1 ? [...operations] : 'mixed-no-op';
  const writing = operations as WritingOperation[];
  const current = currentLines(profile, document);
  const unclaimed = new Set(current.map((line) => line.id));
  let removed = 0;
  for (const operation of writing) {
    if (operation.op !== 'replace') continue;
    for (const lineId of operation.lineIds) {
      if (!unclaimed.delete(lineId)) return 'unknown-line';
      removed += 1;
    }
  }
  if (removed > writing.length) return 'drops-lines';
  if (writing.length > room) return 'visit-limit';
  const byId = new Map(current.map((line) => [line.id, line]));
  const factNormal = normaliseText(fact.text);
  const factWords = contentWords(fact.text);
  const staying = new Set(current.filter((line) => unclaimed.has(line.id)).map((line) => normaliseText(line.text)));
  const written = new Set<string>();
  for (const operation of writing) {
    const text = operation.text.trim();
    if (/[\r\n]/.test(text)) return 'not-one-line';
    if (findCredential(text) !== null) return 'credential';
    if (matchesRefusal(profile.refusals, text)) return 'refused-by-person';
    const normal = normaliseText(text);
    if (normal !== factNormal) {
      if (operation.op === 'add') return 'unrelated-add';
      const allowed = new Set([
        ...factWords,
        ...operation.lineIds.flatMap((lineId) => [...contentWords(byId.get(lineId)!.text)]),
      ]);
      if ([...contentWords(text)].some((word) => !allowed.has(word))) return 'new-words';
    }
    if (normal.length === 0 || written.has(normal) || staying.has(normal)) return 'duplicate-line';
    written.add(normal);
  }
  if (!written.has(factNormal)) return 'fact-missing';
  return [...operations];
}

function newLine(
  fact: AdmittedFact,
  text: string,
  says: boolean,
  supersedes: string[],
  context: MemoryContext,
): ProfileLine {
  return {
    id: context.newId(),
    text,
    evidence: says ? fact.evidence : 'rewritten',
    span: says ? fact.span : null,
    origin: fact.origin,
    createdAt: context.now,
    supersedes,
    ended: null,
  };
}

function withDocument(profile: MemoryProfile, document: MemoryDocumentName, lines: ProfileLine[]): MemoryProfile {
  return { ...profile, documents: { ...profile.documents, [document]: lines } };
}

function append(
  profile: MemoryProfile,
  document: MemoryDocumentName,
  fact: AdmittedFact,
  context: MemoryContext,
  fallback: MergeFallbackCode | null,
): Written {
  const line = newLine(fact, fact.text.trim(), true, [], context);
  const event = writtenEvent({
    lineId: line.id,
    document,
    evidence: line.evidence,
    operation: fallback === null ? 'add' : 'append',
    replaced: 0,
    rewritten: 0,
    fallback,
    canvasId: fact.origin.canvasId,
  });
  const outcome: MergeOutcome = {
    profile: withDocument(profile, document, [...profile.documents[document], line]),
    lineId: line.id,
    operation: fallback === null ? 'add' : 'append',
    fallback,
    event,
    written: 1,
  };
  return { outcome, written: [line] };
}

function apply(
  profile: MemoryProfile,
  document: MemoryDocumentName,
  fact: AdmittedFact,
  operations: readonly MergeOperation[],
  context: MemoryContext,
): Written {
  const lines = [...profile.documents[document]];
  const written: ProfileLine[] = [];
  const factText = normaliseText(fact.text);
  let factLine: ProfileLine | null = null;
  let factOperation: WriteOperation = 'add';
  let replaced = 0;
  let rewritten = 0;
  for (const operation of operations) {
    if (operation.op === 'no-op') continue;
    const text = operation.text.trim();
    const says = factLine === null && normaliseText(text) === factText;
    const supersedes = operation.op === 'replace' ? [...operation.lineIds] : [];
    const line = newLine(fact, text, says, supersedes, context);
    written.push(line);
    if (says) {
      factLine = line;
      factOperation = operation.op;
    } else rewritten += 1;
    if (operation.op === 'add') {
      lines.push(line);
      continue;
    }
    // The new line sits right after the first line it replaces, so the current order reads as before.
    const at = lines.findIndex((candidate) => candidate.id === supersedes[0]);
    for (const lineId of supersedes) {
      const index = lines.findIndex((candidate) => candidate.id === lineId);
      lines[index] = { ...lines[index]!, ended: { reason: 'replaced', at: context.now, by: line.id } };
      replaced += 1;
    }
    lines.splice(at + 1, 0, line);
  }
  const event = writtenEvent({
    lineId: factLine!.id,
    document,
    evidence: fact.evidence,
    operation: factOperation,
    replaced,
    rewritten,
    fallback: null,
    canvasId: fact.origin.canvasId,
  });
  const outcome: MergeOutcome = {
    profile: withDocument(profile, document, lines),
    lineId: factLine!.id,
    operation: factOperation,
    fallback: null,
    event,
    written: written.length,
  };
  return { outcome, written };
}
