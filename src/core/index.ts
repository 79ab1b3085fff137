// The public surface of src/core: the pure, deterministic domain of Weft.
export { canonicalJson, sha256Hex, hashCanonical } from './hashing.ts';
export { jsHashPort } from './hash-port.ts';
export type { HashPort, Sha256Hasher } from './hash-port.ts';
export type { Result } from './result.ts';
export { success, failure } from './result.ts';
export { GraphError } from './graph-error.ts';
export type { GraphErrorCode, GraphErrorDetails } from './graph-error.ts';
export type { Graph } from './graph.ts';
export {
  emptyCanvasDocument,
  emptyGraph,
  graphFromDocument,
  documentFromGraph,
  incomingWires,
  outgoingWires,
} from './graph.ts';
export { loadCanvas } from './load-canvas.ts';
export { authorshipRewrite, othersText } from './authorship-rewrite.ts';
export { askedQuestion } from './asked-question.ts';
export type { LoadedCanvas } from './load-canvas.ts';
export type {
  ApplyOutcome,
  ChangeContext,
  GraphChange,
  GraphChangeType,
  NodeDraft,
  NodePatch,
  Position,
  Size,
  VersionDraft,
  WireSpec,
} from './changes.ts';
export { applyChange } from './apply-change.ts';
export { isLive } from './live.ts';
export { ancestors, descendants, topologicalOrder, compareNodes } from './walk.ts';
export { STALE_MARK } from './compiled-context.ts';
export type { CompiledContext, CompiledSource, ContextLayer, LayerTokens, PartKind } from './compiled-context.ts';
export { compile } from './compile.ts';
export type { CompileOptions } from './compile.ts';
export { estimateTokensByLength } from './tokens.ts';
export { estimateTokensByScript } from './tokens.ts';
export type { EstimateTokens } from './tokens.ts';
export { upstreamFingerprint, upstreamParts, upstreamSnapshot, diffUpstreamParts } from './fingerprint.ts';
export type { UpstreamPartsDiff } from './fingerprint.ts';
export { recordedUpstreamParts } from './recorded-upstream.ts';
export { shareRepeatedStrings } from './share-strings.ts';
export type { RecordedUpstream } from './recorded-upstream.ts';
export { StaleTracker, computeStaleFull, staleTrackerInSteps } from './stale-tracker.ts';
export type { StaleState } from './stale-tracker.ts';
export { shownStale, activeDismissal, DISMISS_BELOW } from './shown-stale.ts';
export { staleDecision, STALE_OPTIONS } from './stale-decision.ts';
export { rerunAllowed } from './rerun-allowed.ts';
export type { RerunVerdict } from './rerun-allowed.ts';
export { askedByHandReason } from './asked-by-hand.ts';
export { replayOrder, autoRerunWave, replayWave, waveStepRuns, dependencyOrder } from './rerun-wave.ts';
export type { WaveStep, StepOutcome } from './rerun-wave.ts';
export { inputPrice, replayEstimate } from './replay-estimate.ts';
export type { ReplayEstimate, ReplayEstimateOptions, ReplayStepEstimate } from './replay-estimate.ts';
export { rerunPlan, type RerunPlan, type RerunPlanOptions, type RerunStep } from './rerun-plan.ts';
export { runNames, runStepView, runVersion, runView, selectedVersion } from './run-view.ts';
export {
  runComparison,
  type CheckVerdict,
  type ChecksOf,
  type ComparedAnswer,
  type NumberOf,
  type RunComparison,
  type RunComparisonOptions,
  type RunComparisonRow,
} from './run-comparison.ts';
export { manualVersion } from './manual-version.ts';
export { buildRequest, imagePlaceholder } from './build-request.ts';
export { assembleRequest } from './build-request.ts';
export { plural } from './plural.ts';
export { formatWhen, formatDay, formatClock } from './format-when.ts';
export { requestTokens, REQUEST_TOKEN_PARTS } from './request-tokens.ts';
export type { RequestTokens, RequestTokenPart } from './request-tokens.ts';
export { agentCommit, buildAgentPrompt, type AgentPrompt, type AgentRuntimeName } from './agent-prompt.ts';
export type { AgentMaterialsCopy } from './agent-prompt.ts';
export {
  AGENT_MATERIAL_FILE_NAME,
  agentMaterialFiles,
  agentMaterialsFolder,
  type AgentMaterialFile,
} from './agent-materials.ts';
export type { BuildRequestOptions, BuiltRequest } from './build-request.ts';
export type { AssembledRequest } from './build-request.ts';
export { contextHash, requestContext, type RequestContext } from './context-hash.ts';
export { isAgentLane, setLimits, type SetLimits, type SetLimitsResult, type SetModel } from './set-limits.ts';
export { setAnswerUsage, type TokenPrices } from './set-answer-usage.ts';
export { wordDiff, WORD_DIFF_MAX_EDITS, type WordChange } from './word-diff.ts';
export { setAnswers, type SetAnswers } from './set-answers.ts';
export { checkResultsOf, type CheckResult } from './check-results.ts';
export { generateSetBody } from './generate-set-body.ts';
export { setRequestHashes, type SetRequestHashes, type SetVariant } from './set-request-hashes.ts';
export { setRequests, type SetDispatch, type SetRequestOptions, type SetRequests } from './set-requests.ts';
export { setCapRefusal, setEstimate, type SetEstimate, type SetModelEstimate } from './set-estimate.ts';
export { answerValue, askedVariable } from './answer-value.ts';
export { checkWords, runCheck, type CheckRun } from './run-check.ts';
export { safePattern, PATTERN_INPUT_MAX, type SafePattern } from './safe-pattern.ts';
export { answerJson, schemaViolation, unsupportedKeyword, type JsonSchema } from './json-schema-check.ts';
export {
  CHECK_EVENT_OP,
  checkEvent,
  checkEventsFor,
  checkEventsForEdit,
  pendingRubrics,
  versionCheckResults,
  type PendingRubric,
  type VersionCheckResult,
} from './version-checks.ts';
export {
  passRateText,
  resultsCsv,
  resultsTable,
  type ResultsCell,
  type ResultsRow,
  type ResultsTable,
} from './results-table.ts';
export { checksChartSpec } from './results-chart-spec.ts';
export { parseRubricVerdict, rubricRequest, RUBRIC_ANSWER_MAX, type RubricVerdict } from './rubric-request.ts';
export { appendEvent, verifyChain, chainAnchor, eventsToCsv, eventHash } from './event-log.ts';
export type { EventDraft, EventStamp, ChainAnchor } from './event-log.ts';
export { chainVerdict, describeChainVerdict } from './chain-verdict.ts';
export { narrowStep, rebaseSteps } from './rebase-steps.ts';
export type { LocalStep, RebaseOutcome } from './rebase-steps.ts';
export { buildContextBundle } from './context-bundle.ts';
export { demoCanvas } from './demo-canvas.ts';
export {
  planMirror,
  compactionKey,
  mirrorSourceFromTurn,
  isMirrorEdited,
  touchedFiles,
  MIRROR_ROW_GAP,
  MIRROR_BRANCH_GAP,
  attachmentParts,
  clipParts,
  attachmentPlainText,
} from './mirror/index.ts';
export type { MirrorPlan, MirrorPlanCounts, MirrorPlanOptions, MirrorSource, AttachmentPart } from './mirror/index.ts';
export { TestCanvas } from './test-canvas.ts';
export type { TestCanvasOptions } from './test-canvas.ts';
export { partitionUpstream } from './partition.ts';
export type { Partition, ReferenceDepth } from './partition.ts';
export { touchedBetween } from './stale-tracker.ts';
export { nodesUsingAttachments } from './graph.ts';
export { currentAnswer } from './node-text.ts';
export { wellFormed } from './well-formed.ts';
export { fingerprintSession } from './fingerprint.ts';
export type { FingerprintSession } from './fingerprint.ts';
export {
  normaliseText,
  findEvidence,
  MIN_SPAN_WORDS,
  findCredential,
  luhnValid,
  firstPersonCategory,
  statesIdentity,
  admitFact,
  MAX_ADDITIONS_PER_VISIT,
  ruleDecide,
  matchesRefusal,
  emptyProfile,
  documentFor,
  currentLines,
  findLine,
  mergeFact,
  addLine,
  editLine,
  deleteLine,
  refuseTopic,
  liftRefusal,
  undoWrite,
  profileAt,
  lineHistory,
  lineValidity,
  linesValidAt,
  memoryBlock,
  lineKnownAs,
  readingTakes,
  knownAsMark,
  memoryReadingOf,
  loadProfile,
  contentKey,
  isPutAside,
  nodeContent,
  PUT_ASIDE_KINDS,
  canvasPutAsides,
} from './memory/index.ts';
export type {
  Exchange,
  ExchangeOrigin,
  PersonText,
  OtherText,
  EvidenceCode,
  EvidenceVerdict,
  CredentialKind,
  FactCategory,
  AdmissionCode,
  MergeFallbackCode,
  CandidateFact,
  AdmittedFact,
  ProposalPath,
  AdmissionVerdict,
  MemoryContext,
  MergeOutcome,
  PersonEdit,
  PersonEditCode,
  MemoryEventDraft,
  WriteOperation,
  ProfileLoadCode,
  ProfileLoadError,
  PutAsideKind,
  PutAsides,
  CanvasPutAside,
} from './memory/index.ts';
export { conversationCanvas, planConversation, IMPORT_COLUMN_GAP, IMPORT_ROW_GAP } from './import/index.ts';
export type {
  ConversationCanvas,
  ConversationCanvasCounts,
  ConversationCanvasOptions,
  ImportedConversation,
  ImportedMessage,
  ImportSource,
  PlannedQuestion,
  PlannedReply,
} from './import/index.ts';
// Authoring (C29–C33): roles, passages, highlights, mentions and the canvas helpers.
export { resolveRole } from './resolve-role.ts';
export type { ResolvedRole, RoleSource } from './resolve-role.ts';
export { passageLine } from './passage-line.ts';
export { passageStatus } from './passage-status.ts';
export { answerForContext, spansOn } from './highlight-text.ts';
export { mentionsIn, mentionedIds, mentionToken, renderMentions } from './mention-text.ts';
export { mentionTitle } from './mention-text.ts';
export { withMentionTitle } from './mention-text.ts';
export { nodeTitle } from './node-title.ts';
export type { Mention } from './mention-text.ts';
export {
  planMerge,
  planCondense,
  planFanOut,
  SYNTHESIS_QUESTION,
  CONCLUSION_QUESTION,
  FAN_OUT_LIMIT,
} from './canvas-helpers.ts';
export type { HelperPlan, FanOutProposal } from './canvas-helpers.ts';
export { CARD_SIZE, freeBeside, freeFrom, graphBoxes, placeBeside } from './free-beside.ts';
export type { Box } from './free-beside.ts';
export { FAN_OUT_INSTRUCTION, parseSubQuestions, ruleSubQuestions } from './sub-questions.ts';
export { fanOutRequest } from './fan-out-request.ts';
export {
  CHAT_TOOLS,
  CHAT_TOOL_IDS,
  chatToolRequest,
  declaredChatTools,
  chatToolByName,
  boundToolText,
  boundToolInput,
  boundToolOutput,
  toolCallEvent,
} from './chat-tools.ts';
export type { ChatToolSpec, ToolRefusal } from './chat-tools.ts';
// Plaques (C32): display-only takeaway ladders.
export {
  splitSentences,
  validateLadder,
  readLadderJson,
  abstractSizeFor,
  ruleLadder,
  ruleTopic,
  plaqueFrom,
  plaqueThread,
  currentPlaque,
  threadLine,
  PLAQUE_THREAD_TOKENS,
  ruleGrade,
  modelGrade,
  gradedPlaque,
  plaqueGrade,
} from './plaque/index.ts';
export type { AnswerSentence, CheckedLadder, LadderRefusal, SetPlaqueChange, PlaqueGrade } from './plaque/index.ts';
export {
  mcpDeclarations,
  mcpToolName,
  isMcpDeclaration,
  mcpServerOf,
  declaredMcpTools,
  sameDeclaration,
} from './mcp-declarations.ts';
export type { McpListedTool, McpSkippedTool } from './mcp-declarations.ts';
export { canvasAllowsTools, offeredTools } from './offered-tools.ts';
export type { OfferedTools } from './offered-tools.ts';
export { DispatchHandshake, shortHash } from './dispatch-handshake.ts';
export type { HandshakeCheck, HandshakeState } from './dispatch-handshake.ts';
