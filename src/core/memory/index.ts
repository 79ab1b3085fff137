// Public API of memory (C13–C14): the constitution, the profile and its history, pure and deterministic.
export { normaliseText, words, contentWords } from './normalise-text.ts';
export type { Exchange, ExchangeOrigin, PersonText, OtherText } from './exchange.ts';
export { exchangeFromCanvas } from './exchange-from-canvas.ts';
export type { ExchangeClaim, ExchangeLookupCode, ExchangeLookupError, RecordedCommit } from './exchange-from-canvas.ts';
export { findEvidence, MIN_SPAN_WORDS } from './find-evidence.ts';
export type { EvidenceCode, EvidenceVerdict } from './find-evidence.ts';
export { findCredential, luhnValid } from './credential-patterns.ts';
export type { CredentialKind } from './credential-patterns.ts';
export { firstPersonCategory, statesIdentity } from './first-person.ts';
export type { FactCategory } from './first-person.ts';
export type { AdmissionCode, MergeFallbackCode } from './verdict-codes.ts';
export { admissionWords, mergeFallbackWords } from './verdict-codes.ts';
export { describeActivity, activityTone } from './describe-activity.ts';
export type { ActivityTone } from './describe-activity.ts';
export type { CandidateFact, AdmittedFact, ProposalPath } from './candidate-fact.ts';
export { admitFact, MAX_ADDITIONS_PER_VISIT } from './admit-fact.ts';
export type { AdmissionVerdict } from './admit-fact.ts';
export { ruleDecide, sentencesOf } from './rule-decide.ts';
export {
  judgedSentences,
  durableRequest,
  categoryRequest,
  statedRequest,
  coversRequest,
  isDurable,
  pickCategory,
  pickCovered,
  candidateFromJudgement,
  DURABLE_CUTOFF,
  CATEGORY_CUTOFF,
  STATED_CUTOFF,
  COVERS_CUTOFF,
  MAX_JUDGED_SENTENCES,
} from './judge-decisions.ts';
export type { SentenceJudgement, JudgeDecisionKind } from './judge-decisions.ts';
export { undoWrites } from './undo-writes.ts';
export { matchesRefusal } from './refusal-match.ts';
export { contentKey, isPutAside, nodeContent, PUT_ASIDE_KINDS } from './put-aside.ts';
export type { PutAsideKind, PutAsides } from './put-aside.ts';
export { canvasPutAsides } from './canvas-put-asides.ts';
export type { CanvasPutAside } from './canvas-put-asides.ts';
export { emptyProfile, documentFor, currentLines, findLine, duplicateLine } from './profile.ts';
export type { MemoryContext } from './profile.ts';
export { mergeFact } from './merge-fact.ts';
export type { MergeOutcome } from './merge-fact.ts';
export { addLine, editLine, deleteLine, refuseTopic, liftRefusal, undoWrite } from './person-edits.ts';
export type { PersonEdit, PersonEditCode } from './person-edits.ts';
export { profileAt, lineHistory } from './profile-history.ts';
export { lineValidity, linesValidAt } from './line-validity.ts';
export type { Validity } from './line-validity.ts';
export { memoryBlock } from './memory-block.ts';
export { lineKnownAs, readingTakes, knownAsMark, KNOWN_AS_WORDS } from './known-as.ts';
export { memoryReadingOf } from './memory-reading-of.ts';
export { loadProfile } from './load-profile.ts';
export type { ProfileLoadCode, ProfileLoadError } from './load-profile.ts';
export {
  judgedEvent,
  writtenEvent,
  undoneEvent,
  refusedByPersonEvent,
  refusalLiftedEvent,
  editedEvent,
  switchedEvent,
  unrecordedEvent,
  importedEvent,
  putAsideEvent,
  sentenceEvent,
} from './memory-events.ts';
export type { MemoryEventDraft, PutAsideRecord, WriteOperation } from './memory-events.ts';
export {
  journalVerdictOf,
  journalEntryRule,
  journalEntryEvidence,
  describeJournalEntry,
  journalPage,
} from './journal-entry.ts';
export type { JournalQuery } from './journal-entry.ts';
export { profileToMarkdown, profileFromMarkdown, importProfile } from './profile-markdown.ts';
export type { ImportedProfile, ImportRefusalCode, PersonWordsLookup } from './profile-markdown.ts';
export { mergeRequest, parseMergeAnswer, MAX_MERGE_LINES } from './merge-request.ts';
export type { MergeRequest } from './merge-request.ts';
export {
  emptyInbox,
  newestFirst,
  inboxPage,
  proposeFact,
  acceptProposal,
  rejectProposal,
  autoAcceptedEvent,
} from './memory-inbox.ts';
export type { InboxDecision, InboxDecisionCode } from './memory-inbox.ts';
