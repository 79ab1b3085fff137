// The public surface of protocol/: wire and file contracts (zod schemas and their types).
export {
  CANVAS_FORMAT,
  CANVAS_VERSION,
  PositionSchema,
  SizeSchema,
  UpstreamPartSchema,
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
  CanvasDocumentSchema,
} from './canvas-document.ts';
export type {
  UpstreamPart,
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
} from './canvas-document.ts';
export { CANVAS_MIGRATIONS, draftToVersionOne, migrateCanvasDocument } from './canvas-migrations.ts';
export type { CanvasMigration, CanvasLoadError, CanvasLoadErrorCode, CanvasLoadResult } from './canvas-migrations.ts';
export { EventMetaSchema, EventRecordSchema } from './event-record.ts';
export type { EventRecord, EventMeta } from './event-record.ts';
export { RequestPartSchema, RequestMessageSchema, CanonicalRequestSchema, DispatchLaneSchema } from './dispatch-request.ts';
export type { RequestPart, RequestMessage, CanonicalRequest, DispatchLane } from './dispatch-request.ts';
export { CONTEXT_BUNDLE_FORMAT, CONTEXT_BUNDLE_VERSION, BundleSourceSchema, ContextBundleSchema, readContextBundle } from './context-bundle.ts';
export type { BundleSource, ContextBundle, ContextBundleReadResult } from './context-bundle.ts';
export { RunnerSchema, ToolOpSchema, ToolStepSchema, TurnSchema, SessionSchema, ParseReportSchema } from './atlas-session.ts';
export type { Runner, ToolOp, ToolStep, Turn, Session, ParseReport } from './atlas-session.ts';
export {
  ApiErrorCodeSchema, ApiErrorSchema, HealthResponseSchema, ProviderKindSchema, ModelInfoSchema, OFFLINE_RECEIPT_MODEL_ID, OFFLINE_RECEIPT_LABEL, ModelsResponseSchema, GenerateImageSchema, GenerateRequestSchema, DecideRequestSchema, DecideResponseSchema, UrlMaterialRequestSchema, UrlMaterialResponseSchema, PdfPageSchema, PdfMaterialResponseSchema, CANVAS_ID_PATTERN, CanvasIdSchema, CanvasSummarySchema, CanvasListResponseSchema, CanvasSavedResponseSchema, OkResponseSchema, ProviderSettingsSchema, SettingsResponseSchema, ProviderIdSchema, ProviderUpdateSchema, SettingsUpdateSchema, AtlasSortSchema, AtlasSessionSummarySchema, AtlasSessionsResponseSchema, AtlasSessionResponseSchema, AtlasWhyHitSchema, AtlasWhyResponseSchema, AtlasFollowSchema, AtlasFollowRequestSchema, AtlasFollowsResponseSchema,
} from './http-api.ts';
export type {
  ApiErrorCode, ApiError, HealthResponse, ProviderKind, ModelInfo, ModelsResponse, GenerateImage, GenerateRequest, DecideRequest, DecideResponse, UrlMaterialRequest, UrlMaterialResponse, PdfMaterialResponse, CanvasSummary, CanvasListResponse, CanvasSavedResponse, OkResponse, ProviderSettings, SettingsResponse, ProviderUpdate, SettingsUpdate, AtlasSort, AtlasSessionSummary, AtlasSessionsResponse, AtlasSessionResponse, AtlasWhyHit, AtlasWhyResponse, AtlasFollow, AtlasFollowRequest, AtlasFollowsResponse,
} from './http-api.ts';
export {
  GenerateFailureCodeSchema, UsageSchema, RequestAcceptedEventSchema, TextDeltaEventSchema, AnswerFinishedEventSchema, AnswerFailedEventSchema, CanvasChangedEventSchema, CanvasDeletedEventSchema, MirrorAppendedEventSchema, SessionGrewEventSchema, SettingsChangedEventSchema, StreamEventSchema, isTerminalGenerateEvent,
} from './stream-events.ts';
export type {
  GenerateFailureCode, Usage, StreamEvent, RequestAcceptedEvent, TextDeltaEvent, AnswerFinishedEvent, AnswerFailedEvent, CanvasChangedEvent, MirrorAppendedEvent, SessionGrewEvent,
} from './stream-events.ts';
