// The public surface of protocol/: wire and file contracts (zod schemas and their types).
export {
  CANVAS_FORMAT,
  CANVAS_VERSION,
  PositionSchema,
  SizeSchema,
  UpstreamPartSchema,
  UpstreamBaseSchema,
  UpstreamRecordSchema,
  VersionSchema,
  AutoRerunSchema,
  QuestionNodeSchema,
  NoteNodeSchema,
  MaterialProvenanceSchema,
  MaterialNodeSchema,
  FrameNodeSchema,
  ExecutionStepSchema,
  MirrorSourceSchema,
  MirrorNodeSchema,
  CanvasNodeSchema,
  WireSchema,
  AttachmentSchema,
  StaleDismissalSchema,
  MirrorLedgerSchema,
  CanvasMetaSchema,
  CanvasRecordsSchema,
  RoleSettingSchema,
  PassageSchema,
  HighlightSchema,
  HighlightModeSchema,
  NoteAuthorSchema,
  QuestionAuthorSchema,
} from './canvas-document.ts';
export { noteAuthor, LEGACY_DEMO_NOTE } from './note-author.ts';
export { questionAuthor, versionQuestionAuthor, LEGACY_APP_QUESTIONS } from './question-author.ts';
export type {
  UpstreamPart,
  UpstreamBase,
  UpstreamRecord,
  Version,
  MaterialProvenance,
  CanvasNode,
  QuestionNode,
  NoteNode,
  MaterialNode,
  FrameNode,
  MirrorNode,
  NodeKind,
  Wire,
  Attachment,
  StaleDismissal,
  MirrorLedger,
  CanvasMeta,
  CanvasDocument,
  RoleSetting,
  Passage,
  Highlight,
  HighlightMode,
  NoteAuthor,
  QuestionAuthor,
} from './canvas-document.ts';
export {
  CANVAS_MIGRATIONS,
  draftToVersionOne,
  partsToUpstreamRecords,
  migrateCanvasDocument,
} from './canvas-migrations.ts';
export type { CanvasMigration, CanvasLoadError, CanvasLoadErrorCode, CanvasLoadResult } from './canvas-migrations.ts';
export { upstreamDelta, foldUpstream, upstreamRecordSize } from './upstream-record.ts';
export { EventMetaSchema, EventRecordSchema } from './event-record.ts';
export type { EventRecord, EventMeta } from './event-record.ts';
export { StoredEventSchema, chainedEvents, storedEvents } from './stored-events.ts';
export type { StoredEvent } from './stored-events.ts';
export {
  CanvasDocumentSchema,
  storedCanvasDocument,
  compactCanvas,
  expandStoredCanvas,
  versionOpening,
} from './canvas-stored-form.ts';
export type { StoredCanvasForm } from './canvas-stored-form.ts';
export { CHAIN_HEAD_FORMAT, CHAIN_HEAD_VERSION, ChainHeadSchema, ChainVerdictSchema } from './chain-head.ts';
export type { ChainHead, ChainVerdict } from './chain-head.ts';
export {
  RequestPartSchema,
  RequestMessageSchema,
  CanonicalRequestSchema,
  DispatchLaneSchema,
} from './dispatch-request.ts';
export type { RequestPart, RequestMessage, CanonicalRequest, DispatchLane } from './dispatch-request.ts';
export {
  CONTEXT_BUNDLE_FORMAT,
  CONTEXT_BUNDLE_VERSION,
  BundleSourceSchema,
  ContextBundleSchema,
  readContextBundle,
  bundleRequest,
} from './context-bundle.ts';
export type { BundleSource, ContextBundle, ContextBundleReadResult } from './context-bundle.ts';
export {
  RunnerSchema,
  ToolOpSchema,
  ToolStepSchema,
  TurnSchema,
  SessionSchema,
  ParseReportSchema,
} from './atlas-session.ts';
export type { Runner, ToolOp, ToolStep, Turn, Session, ParseReport } from './atlas-session.ts';
export {
  ApiErrorCodeSchema,
  ApiErrorSchema,
  HealthResponseSchema,
  ProviderKindSchema,
  ModelInfoSchema,
  OFFLINE_RECEIPT_MODEL_ID,
  OFFLINE_RECEIPT_LABEL,
  ModelsResponseSchema,
  GenerateImageSchema,
  GenerateRequestSchema,
  DecideRequestSchema,
  DecideResponseSchema,
  UrlMaterialRequestSchema,
  UrlMaterialResponseSchema,
  PdfPageSchema,
  PdfMaterialResponseSchema,
  CANVAS_ID_PATTERN,
  CanvasIdSchema,
  CanvasSummarySchema,
  CanvasListResponseSchema,
  CanvasSavedResponseSchema,
  CanvasRevisionSchema,
  CanvasVerifyResponseSchema,
  OkResponseSchema,
  ProviderSettingsSchema,
  SettingsResponseSchema,
  ProviderIdSchema,
  ProviderUpdateSchema,
  SettingsUpdateSchema,
  ProviderTestResponseSchema,
  AtlasSortSchema,
  AtlasSessionSummarySchema,
  AtlasSessionsResponseSchema,
  AtlasSessionResponseSchema,
  AtlasWhyHitSchema,
  AtlasWhyResponseSchema,
  AtlasFollowSchema,
  AtlasFollowRequestSchema,
  AtlasFollowsResponseSchema,
} from './http-api.ts';
export type {
  ApiErrorCode,
  ApiError,
  HealthResponse,
  ProviderKind,
  ModelInfo,
  ModelsResponse,
  GenerateImage,
  GenerateRequest,
  DecideRequest,
  DecideResponse,
  UrlMaterialRequest,
  UrlMaterialResponse,
  PdfMaterialResponse,
  CanvasSummary,
  CanvasListResponse,
  CanvasSavedResponse,
  CanvasVerifyResponse,
  OkResponse,
  ProviderSettings,
  SettingsResponse,
  ProviderUpdate,
  SettingsUpdate,
  ProviderTestResponse,
  AtlasSort,
  AtlasSessionSummary,
  AtlasSessionsResponse,
  AtlasSessionResponse,
  AtlasWhyHit,
  AtlasWhyResponse,
  AtlasFollow,
  AtlasFollowRequest,
  AtlasFollowsResponse,
} from './http-api.ts';
export {
  GenerateFailureCodeSchema,
  UsageSchema,
  RequestAcceptedEventSchema,
  TextDeltaEventSchema,
  AnswerFinishedEventSchema,
  AnswerFailedEventSchema,
  CanvasChangedEventSchema,
  CanvasDeletedEventSchema,
  MirrorAppendedEventSchema,
  SessionGrewEventSchema,
  SettingsChangedEventSchema,
  StreamEventSchema,
  isTerminalGenerateEvent,
} from './stream-events.ts';
export type {
  GenerateFailureCode,
  Usage,
  StreamEvent,
  RequestAcceptedEvent,
  TextDeltaEvent,
  AnswerFinishedEvent,
  AnswerFailedEvent,
  CanvasChangedEvent,
  MirrorAppendedEvent,
  SessionGrewEvent,
} from './stream-events.ts';
export { keyOrigin } from './key-origin.ts';
export {
  MEMORY_PROFILE_FORMAT,
  MEMORY_PROFILE_VERSION,
  MEMORY_DOCUMENTS,
  MemoryDocumentNameSchema,
  LineEvidenceSchema,
  LineOriginSchema,
  LineEndSchema,
  ProfileLineSchema,
  RefusalSchema,
  MemoryProfileSchema,
  MergeOperationSchema,
  MergeOperationsSchema,
  MEMORY_EVENT_OPS,
  MemoryEventOpSchema,
  readMemoryProfile,
} from './memory-profile.ts';
export type {
  MemoryDocumentName,
  LineEvidence,
  LineOrigin,
  LineEnd,
  ProfileLine,
  Refusal,
  MemoryProfile,
  MergeOperation,
  MergeOperations,
  MemoryEventOp,
  MemoryProfileReadCode,
  MemoryProfileReadResult,
} from './memory-profile.ts';
export type { SessionArchiveSettings } from './http-api.ts';
export { ArchiveVerificationSchema, SessionArchiveHealthSchema } from './session-archive-health.ts';
export type { ArchiveVerificationResult, SessionArchiveHealth } from './session-archive-health.ts';
export {
  ImportStateSchema,
  ImportStatusSchema,
  ImportProgressEventSchema,
  DocumentMaterialResponseSchema,
} from './import-api.ts';
export type { ImportState, ImportStatus, ImportProgressEvent, DocumentMaterialResponse } from './import-api.ts';
export {
  AgentApprovalAnswerSchema,
  AgentUnconfinedConsentSchema,
  AgentFolderCheckSchema,
  AgentRuntimeSchema,
  AgentTurnRequestSchema,
  ApprovalDecisionSchema,
  FootprintSchema,
  GuardModeSchema,
  AgentVersionSchema,
  WORKSPACE_CHANGES_TOOL,
  type AgentTurnRequest,
  type AgentVersion,
  type ApprovalRequestValue,
  type ApprovalRecord,
  type FootprintValue,
  type GuardModeValue,
} from './agent-lane.ts';
export * from './memory-api.ts';
export * from './memory-journal.ts';
export * from './memory-inbox.ts';
export * from './memory-reading.ts';
export * from './put-aside-api.ts';
export * from './topic-api.ts';
export {
  CanvasPatchSchema,
  applyCanvasPatch,
  canvasPatchBetween,
  dismissalPatchKey,
  ledgerPatchKey,
} from './canvas-patch.ts';
export type { CanvasPatch } from './canvas-patch.ts';
export {
  ChatToolIdSchema,
  ToolDeclarationSchema,
  ToolCallRecordSchema,
  ToolCallStatusSchema,
  ToolCallStartedEventSchema,
  ToolCallFinishedEventSchema,
  TOOL_INPUT_MAX_CHARS,
  TOOL_OUTPUT_MAX_CHARS,
  TOOL_STEP_LIMIT,
  TOOL_CALLS_MAX,
} from './chat-tools.ts';
export type {
  ChatToolId,
  ToolDeclaration,
  ToolCallRecord,
  ToolCallStartedEvent,
  ToolCallFinishedEvent,
} from './chat-tools.ts';
export {
  PlaqueSchema,
  PlaqueRefusalSchema,
  PlaqueRequestSchema,
  PlaqueResponseSchema,
  PLAQUE_TOPIC_MAX,
  PLAQUE_TAKEAWAY_MAX,
  PLAQUE_REASON_MAX,
  PlaqueSummaryTypeSchema,
  PlaqueConclusivenessSchema,
} from './plaque.ts';
export type {
  Plaque,
  PlaqueRefusal,
  PlaqueRequest,
  PlaqueResponse,
  PlaqueSummaryType,
  PlaqueConclusiveness,
} from './plaque.ts';
export {
  BRAVE_SEARCH_KEY_ID,
  WebSearchProviderSchema,
  WebSearchSettingsSchema,
  WebSearchUpdateSchema,
} from './web-search.ts';
export type { WebSearchProvider, WebSearchSettings, WebSearchUpdate } from './web-search.ts';
export {
  TEAM_INDEX_KEY_ID,
  TeamIndexCheckSchema,
  TeamIndexSettingsSchema,
  TeamIndexUpdateSchema,
  TeamMachineSchema,
} from './team-index.ts';
export type { TeamIndexCheck, TeamIndexSettings, TeamIndexUpdate, TeamMachine } from './team-index.ts';
export * from './dossier.ts';
export {
  ASK_CANVAS_QUESTION_MAX,
  AskCanvasLayersSchema,
  AskCanvasTurnSchema,
  CANVAS_CHAT_FORMAT,
  CANVAS_CHAT_VERSION,
  CanvasChatSchema,
  AskCanvasRequestSchema,
  CanvasChatResponseSchema,
} from './ask-canvas.ts';
export type { AskCanvasLayers, AskCanvasTurn, CanvasChat, AskCanvasRequest, CanvasChatResponse } from './ask-canvas.ts';
export * from './dossier-api.ts';
export {
  MCP_CONFIG_FILE,
  MCP_SERVERS_MAX,
  MCP_TOOLS_PER_SERVER_MAX,
  MCP_SCHEMA_MAX_CHARS,
  MCP_NAME_SEPARATOR,
  MCP_NODE_TOOLS_MAX,
  McpConfigSchema,
  McpServerConfigSchema,
  McpErrorSchema,
  McpServerSummarySchema,
  McpServersResponseSchema,
  McpServerToolsSchema,
  McpToolsResponseSchema,
} from './mcp-tools.ts';
export type {
  McpConfig,
  McpServerConfig,
  McpError,
  McpServerSummary,
  McpServersResponse,
  McpServerTools,
  McpToolsResponse,
} from './mcp-tools.ts';
export * from './recall-api.ts';
export * from './model-set.ts';
export * from './generate-set.ts';
export * from './run-tag.ts';
export * from './answer-check.ts';
export * from './results-figure.ts';
export {
  SessionRootsSourceSchema,
  SessionRootSchema,
  SessionRootsResponseSchema,
  SessionRootRequestSchema,
} from './session-roots-api.ts';
export type { SessionRootsSource, SessionRoot, SessionRootsResponse, SessionRootRequest } from './session-roots-api.ts';
export { WeftError, isWeftError } from './weft-error.ts';
