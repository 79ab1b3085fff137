import { z } from 'zod';
import { RunnerSchema, SessionSchema } from './atlas-session.ts';
import { ChainVerdictSchema } from './chain-head.ts';
import { CanonicalRequestSchema } from './dispatch-request.ts';
import { GenerateFailureCodeSchema } from './stream-events.ts';
import { CompletenessSchema, KnownAsSchema } from './memory-reading.ts';

/** Request/response bodies of the local HTTP API (see the HTTP contract). Errors: `{ error: { code, message } }`. */
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');

export const ApiErrorCodeSchema = z.enum([
  'unauthorized',
  'bad-host',
  'bad-origin',
  'bad-request',
  'invalid-body',
  'body-too-large',
  'unsupported-media-type',
  'not-found',
  'invalid-id',
  'invalid-canvas',
  'newer-version',
  'corrupt-record',
  'revision-conflict',
  'event-log-rewrite',
  'event-log-damaged',
  'image-mismatch',
  'image-missing',
  'url-refused',
  'fetch-failed',
  'fetch-too-large',
  'fetch-timeout',
  'pdf-invalid',
  'storage-failed',
  'internal',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

export const ApiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const HealthResponseSchema = z.object({ ok: z.literal(true), version: z.string() });
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

export const ProviderKindSchema = z.enum(['openai', 'anthropic', 'openrouter', 'openai-compatible', 'ollama']);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

export const ModelInfoSchema = z.object({
  /** `<providerId>/<model>` e.g. `openai/gpt-4o`, `offline/receipt`. */
  id: z.string().min(1),
  provider: z.string(),
  label: z.string(),
  contextWindow: z.number().int().positive(),
  takesImages: z.boolean(),
  offline: z.boolean(),
  pricePerMTokIn: z.number().nonnegative().nullable(),
  pricePerMTokOut: z.number().nonnegative().nullable(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const OFFLINE_RECEIPT_MODEL_ID = 'offline/receipt';
export const OFFLINE_RECEIPT_LABEL = 'Offline receipt (no model called)';

export const ModelsResponseSchema = z.object({ models: z.array(ModelInfoSchema), defaultModelId: z.string() });
export type ModelsResponse = z.infer<typeof ModelsResponseSchema>;

export const GenerateImageSchema = z.object({
  hash: Sha256,
  mediaType: z.string().min(1),
  dataBase64: z.string(),
});
export type GenerateImage = z.infer<typeof GenerateImageSchema>;

export const GenerateRequestSchema = z.object({
  request: CanonicalRequestSchema,
  /** The client's hashCanonical(request); the server recomputes it and refuses on mismatch. */
  requestHash: Sha256,
  images: z.array(GenerateImageSchema),
  /**
   * The question node this request answers (issue 27.3): the server checks it against the stored canvas and
   * records the commit in its ledger. A request without it is answered but recorded for no node, so memory never
   * takes its answer as evidence.
   */
  target: z.object({ canvasId: z.string().min(1).max(100), nodeId: z.string().min(1).max(200) }).optional(),
  /**
   * Issue 31: the client's context hash (messages and tools alone, `contextHash` in src/core), sent by every
   * answer of a model set; the server recomputes it, refuses a mismatch and records it with the commit.
   */
  contextHash: Sha256.optional(),
});
export type GenerateRequest = z.infer<typeof GenerateRequestSchema>;

export const DecideRequestSchema = z.object({
  kind: z.string().min(1).max(100),
  prompt: z.string().max(200_000),
  options: z.array(z.string().min(1).max(200)).min(1).max(50),
});
export type DecideRequest = z.infer<typeof DecideRequestSchema>;

export const DecideResponseSchema = z.object({
  probabilities: z.record(z.string(), z.number().min(0).max(1)),
  fallback: z.boolean(),
  model: z.string().nullable(),
});
export type DecideResponse = z.infer<typeof DecideResponseSchema>;

export const UrlMaterialRequestSchema = z.object({ url: z.string().min(1).max(4096) });
export type UrlMaterialRequest = z.infer<typeof UrlMaterialRequestSchema>;

export const UrlMaterialResponseSchema = z.object({
  url: z.string(),
  finalUrl: z.string(),
  fetchedAt: z.number().int().nonnegative(),
  title: z.string(),
  text: z.string(),
});
export type UrlMaterialResponse = z.infer<typeof UrlMaterialResponseSchema>;

export const PdfPageSchema = z.object({ number: z.number().int().positive(), text: z.string() });
export const PdfMaterialResponseSchema = z.object({ pages: z.array(PdfPageSchema) });
export type PdfMaterialResponse = z.infer<typeof PdfMaterialResponseSchema>;

export const CANVAS_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
export const CanvasIdSchema = z.string().regex(CANVAS_ID_PATTERN, 'canvas ids are 1–100 letters, digits, _ or -');

export const CanvasSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  updatedAt: z.number().int().nonnegative(),
  nodeCount: z.number().int().nonnegative(),
  /** The canvas's working directory, when known: tells canvases with the same name apart in the switcher. */
  workingDirectory: z.string().nullable().optional(),
});
export type CanvasSummary = z.infer<typeof CanvasSummarySchema>;

export const CanvasListResponseSchema = z.object({ canvases: z.array(CanvasSummarySchema) });
export type CanvasListResponse = z.infer<typeof CanvasListResponseSchema>;

/**
 * A record's revision is the SHA-256 of its stored bytes: `GET /api/canvases/:id` sends it as the `ETag`,
 * `PUT` names the one it was based on in `If-Match` (none for a new record) and answers 409
 * `revision-conflict` when the record moved on meanwhile.
 */
export const CanvasRevisionSchema = Sha256;
export const CanvasSavedResponseSchema = z.object({
  ok: z.literal(true),
  updatedAt: z.number().int().nonnegative(),
  revision: CanvasRevisionSchema,
});
export type CanvasSavedResponse = z.infer<typeof CanvasSavedResponseSchema>;

/** `GET /api/canvases/:id/verify`: the record's log checked against the chain head the store keeps. */
export const CanvasVerifyResponseSchema = z.object({
  id: z.string(),
  verdict: ChainVerdictSchema,
  head: z.object({ eventCount: z.number().int().nonnegative(), lastEventHash: z.string() }).nullable(),
  /**
   * Set when a record under this id was deleted before this one was created: this is a new record, its log its own
   * (the anchors journal keeps the deleted one's tombstone). Optional so older servers still parse.
   */
  recreatedAfter: z.object({ deletedAt: z.number(), eventCount: z.number().int().nonnegative() }).nullable().optional(),
});
export type CanvasVerifyResponse = z.infer<typeof CanvasVerifyResponseSchema>;

export const OkResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponseSchema>;

export const ProviderSettingsSchema = z.object({
  id: z.string(),
  kind: ProviderKindSchema,
  baseUrl: z.string().nullable(),
  hasKey: z.boolean(),
  enabled: z.boolean(),
  /** Configured model ids (openai-compatible providers); optional so older clients still parse. */
  models: z.array(z.string()).optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/** Keep compressed copies of indexed session files (on by default); a runner switched off has its copies dropped. */
export const SessionArchiveSettingsSchema = z.object({
  enabled: z.boolean(),
  runners: z.object({ 'claude-code': z.boolean(), codex: z.boolean(), pi: z.boolean() }),
});
export type SessionArchiveSettings = z.infer<typeof SessionArchiveSettingsSchema>;

export const SettingsResponseSchema = z.object({
  providers: z.array(ProviderSettingsSchema),
  judgeModelId: z.string().nullable(),
  backupFolder: z.string().nullable(),
  defaultModelId: z.string().nullable(),
  /**
   * In the answer to a PUT: providers whose stored key was removed because their base URL moved to another
   * origin (a key is bound to the origin it was entered for). Optional so older servers still parse.
   */
  keysCleared: z.array(z.string()).optional(),
  /**
   * In the answer to a PUT: providers that no longer receive the environment's key (OPENAI_API_KEY, …) because
   * their kind or base URL now leads away from that kind's official origin. Optional so older servers still parse.
   */
  environmentKeysDetached: z.array(z.string()).optional(),
  /** Optional so older servers still parse. */
  sessionArchive: SessionArchiveSettingsSchema.optional(),
  /** C32: who writes plaques — the answering model (the decision model for agents and the receipt) or the rule. */
  plaqueWriter: z.enum(['model', 'rule']).optional(),
  /** Issue 29.1: which memory writes skip the Inbox (profile facts: off unless switched on). Optional for older servers. */
  memoryAutoAccept: z.object({ profileFacts: z.boolean(), dossierSentences: z.boolean().optional() }).optional(),
  /** Issue 31: the most one ask of a model set may cost (US dollars); null: no cap. Optional for older servers. */
  setCapUsd: z.number().nonnegative().nullable().optional(),
});
export type SettingsResponse = z.infer<typeof SettingsResponseSchema>;

export const ProviderIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'provider ids are lowercase letters, digits, _ or -');

export const ProviderUpdateSchema = z.object({
  id: ProviderIdSchema,
  kind: ProviderKindSchema,
  baseUrl: z.string().url().max(2048).nullable().optional(),
  /** Write-only: stored in secrets.json, never returned. Empty string removes the key. */
  apiKey: z.string().max(1000).optional(),
  enabled: z.boolean().optional(),
  /** Model ids offered for openai-compatible providers (no listing endpoint is assumed). */
  models: z.array(z.string().min(1).max(200)).max(100).optional(),
});
export type ProviderUpdate = z.infer<typeof ProviderUpdateSchema>;

export const SettingsUpdateSchema = z.object({
  providers: z.array(ProviderUpdateSchema).max(50).optional(),
  judgeModelId: z.string().min(1).nullable().optional(),
  backupFolder: z.string().min(1).max(4096).nullable().optional(),
  defaultModelId: z.string().min(1).nullable().optional(),
  sessionArchive: SessionArchiveSettingsSchema.optional(),
  plaqueWriter: z.enum(['model', 'rule']).optional(),
  memoryAutoAccept: z.object({ profileFacts: z.boolean(), dossierSentences: z.boolean().optional() }).optional(),
  /** Issue 31: the per-ask cap of a model set in US dollars; null removes it. */
  setCapUsd: z.number().nonnegative().max(10_000).nullable().optional(),
  /** Provider ids to remove, with their stored keys; a default or judge model of theirs is unset. */
  removeProviders: z.array(z.string().min(1).max(100)).max(50).optional(),
});
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

// ---- Session Atlas (C18–C22 in the app): added for the Atlas browser, mirror, follow and Why panel ----

export const AtlasSortSchema = z.enum(['recent', 'oldest', 'size', 'turns', 'title']);
export type AtlasSort = z.infer<typeof AtlasSortSchema>;

/** One session card, listed from the why index (never by reading files). */
export const AtlasSessionSummarySchema = z.object({
  runner: RunnerSchema,
  sessionId: z.string(),
  title: z.string(),
  cwd: z.string().nullable(),
  gitBranch: z.string().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** Bytes of the session file. */
  size: z.number(),
  turnCount: z.number().int(),
  isSubagent: z.boolean(),
  parentSessionId: z.string().nullable(),
  hasSubagents: z.boolean(),
  sourcePath: z.string(),
  following: z.boolean(),
  /** The session file is gone (its agent deleted it); Weft shows its archived copy. */
  sourceDeleted: z.boolean().optional(),
});
export type AtlasSessionSummary = z.infer<typeof AtlasSessionSummarySchema>;

export const AtlasSessionsResponseSchema = z.object({
  runners: z.array(z.object({ runner: RunnerSchema, sessions: z.number().int() })),
  /** Project folders: sessions grouped by recorded working directory (null = unknown). */
  projects: z.array(z.object({ cwd: z.string().nullable(), sessions: z.number().int() })),
  sessions: z.array(AtlasSessionSummarySchema),
  /** Sessions matched before the listing limit. */
  total: z.number().int(),
  roots: z.array(z.string()),
  refresh: z.object({
    files: z.number().int(),
    fullReads: z.number().int(),
    appendReads: z.number().int(),
    durationMs: z.number(),
  }),
});
export type AtlasSessionsResponse = z.infer<typeof AtlasSessionsResponseSchema>;

/** The session and its subagent runs, read through the fence. */
export const AtlasSessionResponseSchema = z.object({
  sessions: z.array(SessionSchema),
  following: z.boolean(),
  /** The session's file is gone: these sessions were read from Weft's archived copy. */
  sourceDeleted: z.boolean().optional(),
});
export type AtlasSessionResponse = z.infer<typeof AtlasSessionResponseSchema>;

export const AtlasWhyHitSchema = z.object({
  runner: z.string(),
  sessionId: z.string(),
  turn: z.number().int(),
  turnKey: z.string(),
  path: z.string(),
  op: z.string(),
  /** Everything the turn did to the path, strongest first (`op` is the first). */
  ops: z.array(z.string()).optional(),
  at: z.number().nullable(),
  cwd: z.string().nullable(),
  question: z.string(),
  /** The top-level session whose mirror shows this turn (differs for a subagent turn). */
  mainSessionId: z.string(),
  /** The session file is gone; the turn is answered from Weft's archived copy. */
  sourceDeleted: z.boolean().optional(),
  /** #29: how the turn is known (`observed`, or `reconstructed` when interrupted or cut short). */
  knownAs: KnownAsSchema.optional(),
  completeness: CompletenessSchema.nullable().optional(),
});
export type AtlasWhyHit = z.infer<typeof AtlasWhyHitSchema>;
export const AtlasWhyResponseSchema = z.object({
  target: z.string(),
  hits: z.array(AtlasWhyHitSchema),
  hiddenReads: z.number().int(),
  /** Issue 29.2: turns that touched the target but whose words the person put aside, left out and counted. */
  putAside: z.number().int().nonnegative().optional(),
  /** Issue 32.4: set when a team's PostgreSQL index answered (absent: this machine's index). */
  answeredBy: z.literal('team-index').optional(),
  /** That index's server, `postgres://host:port/database` (never user or password). */
  teamLocation: z.string().optional(),
});
export type AtlasWhyResponse = z.infer<typeof AtlasWhyResponseSchema>;

export const AtlasFollowSchema = z.object({
  runner: RunnerSchema,
  sessionId: z.string().min(1).max(400),
  sourcePath: z.string(),
  since: z.number(),
});
export type AtlasFollow = z.infer<typeof AtlasFollowSchema>;
export const AtlasFollowRequestSchema = z.object({
  runner: RunnerSchema,
  sessionId: z.string().min(1).max(400),
  following: z.boolean(),
});
export type AtlasFollowRequest = z.infer<typeof AtlasFollowRequestSchema>;
export const AtlasFollowsResponseSchema = z.object({ follows: z.array(AtlasFollowSchema) });
export type AtlasFollowsResponse = z.infer<typeof AtlasFollowsResponseSchema>;

/**
 * `POST /api/providers/:id/test`: one tiny request to the saved provider's first model (C12, "test connection").
 * `ok` with the latency, or the provider failure's code and a message with every key scrubbed.
 */
export const ProviderTestResponseSchema = z.object({
  providerId: z.string(),
  ok: z.boolean(),
  modelId: z.string().nullable(),
  latencyMs: z.number().nonnegative(),
  code: z.enum([...GenerateFailureCodeSchema.options, 'no-model', 'unknown-provider', 'timeout']).optional(),
  message: z.string().optional(),
});
export type ProviderTestResponse = z.infer<typeof ProviderTestResponseSchema>;
