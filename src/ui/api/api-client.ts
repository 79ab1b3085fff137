import {
  CanvasListResponseSchema,
  CanvasSavedResponseSchema,
  CanvasVerifyResponseSchema,
  DecideResponseSchema,
  ModelsResponseSchema,
  OkResponseSchema,
  PdfMaterialResponseSchema,
  PlaqueResponseSchema,
  type PlaqueRequest,
  type PlaqueResponse,
  SettingsResponseSchema,
  WebSearchSettingsSchema,
  type WebSearchSettings,
  type WebSearchUpdate,
  TeamIndexCheckSchema,
  TeamIndexSettingsSchema,
  type TeamIndexCheck,
  type TeamIndexSettings,
  type TeamIndexUpdate,
  ProviderTestResponseSchema,
  UrlMaterialResponseSchema,
  type CanvasSummary,
  type CanvasVerifyResponse,
  type DecideRequest,
  type DecideResponse,
  type ModelsResponse,
  type PdfMaterialResponse,
  type SettingsResponse,
  type SettingsUpdate,
  type ProviderTestResponse,
  type UrlMaterialResponse,
} from '../../../protocol/index.ts';
import { CanvasDocumentSchema, type CanvasDocument } from '../../../protocol/index.ts';
import {
  DocumentMaterialResponseSchema,
  ImportStatusSchema,
  type DocumentMaterialResponse,
  type ImportStatus,
} from '../../../protocol/index.ts';
import {
  McpServersResponseSchema,
  McpToolsResponseSchema,
  type McpServersResponse,
  type McpToolsResponse,
} from '../../../protocol/index.ts';
import { SessionRootsResponseSchema, type SessionRootsResponse } from '../../../protocol/index.ts';
import { SessionArchiveHealthSchema, type SessionArchiveHealth } from '../../../protocol/index.ts';
import {
  RubricCheckResponseSchema,
  type RubricCheckRequest,
  type RubricCheckResponse,
  ResultsFigureResponseSchema,
  type ResultsFigureRequest,
  type ResultsFigureResponse,
} from '../../../protocol/index.ts';
import { ApiClientError } from './api-error.ts';
import { createHttpClient, jsonInit, readJson, type ApiClientOptions } from './http-client.ts';
import { readCanvasRecords, readCanvasRecordsUnchecked } from './read-canvas-records.ts';
import { SavedCopies } from './saved-copies.ts';

export interface RevisedCanvas {
  document: CanvasDocument;
  revision: string;
}

/** Typed client of the local server (HTTP contract). Same-origin; the auth cookie rides along. */
export interface ApiClient {
  models(): Promise<ModelsResponse>;
  settings(): Promise<SettingsResponse>;
  saveSettings(update: SettingsUpdate): Promise<SettingsResponse>;
  /** "Test connection": one short request to a saved provider's first model. */
  testProvider(providerId: string): Promise<ProviderTestResponse>;
  /** C35: the web search service (Brave key write-only, or a SearXNG URL). */
  webSearch(): Promise<WebSearchSettings>;
  saveWebSearch(update: WebSearchUpdate): Promise<WebSearchSettings>;
  /** Issue 32.4: the team index (its connection string write-only: `location` comes back, never the string). */
  teamIndex(): Promise<TeamIndexSettings>;
  saveTeamIndex(update: TeamIndexUpdate): Promise<TeamIndexSettings>;
  /** Connects with the stored string: what this person's role reads, the machines seen, each one's last push. */
  testTeamIndex(): Promise<TeamIndexCheck>;
  /** C35: the MCP servers of `$WEFT_HOME/mcp.json` as configured (nothing started). */
  mcpServers(): Promise<McpServersResponse>;
  /** C35: each MCP server's tools as a request declares them (starts the servers not yet running). */
  mcpTools(): Promise<McpToolsResponse>;
  /** C18: the Atlas's session roots, each with what it holds, and whether `WEFT_SESSION_ROOTS` overrides them. */
  sessionRoots(): Promise<SessionRootsResponse>;
  /** Adds a folder (checked by the server: a real folder apart from Weft's own); answers the roots now. */
  addSessionRoot(path: string): Promise<SessionRootsResponse>;
  removeSessionRoot(path: string): Promise<SessionRootsResponse>;
  /** The session archive's health: copies, bytes, copies without a hash, the last verification. */
  sessionArchive(): Promise<SessionArchiveHealth>;
  /** Re-reads every archived copy on the server now; answers the health with that verification. */
  verifySessionArchive(): Promise<SessionArchiveHealth>;
  decide(request: DecideRequest): Promise<DecideResponse>;
  /** C32: one answer's display-only plaque (a model's validated ladder or the rule's). */
  plaque(request: PlaqueRequest): Promise<PlaqueResponse>;
  /** Issue 31: the Results view's chart per check, as SVG (rendered by Vega on the server). */
  checksFigure(request: ResultsFigureRequest): Promise<ResultsFigureResponse>;
  /** Issue 31: one answer judged against a rubric by the decision model (verdict, reason, judge, request hash). */
  rubricCheck(request: RubricCheckRequest): Promise<RubricCheckResponse>;
  fetchUrl(url: string): Promise<UrlMaterialResponse>;
  extractPdf(bytes: ArrayBuffer): Promise<PdfMaterialResponse>;
  /** C34: a conversations export, uploaded as it is; the import runs on in the server. */
  startImport(file: Blob, name: string): Promise<ImportStatus>;
  importStatus(importId: string): Promise<ImportStatus>;
  cancelImport(importId: string): Promise<ImportStatus>;
  readDocument(file: Blob, name: string): Promise<DocumentMaterialResponse>;
  listCanvases(): Promise<CanvasSummary[]>;
  getCanvas(id: string): Promise<CanvasDocument>;
  /**
   * The durable record and its revision (the server's ETag). `checkLater`: the records come back before the schema
   * has read them, with `check` to run it (record by record, giving the page turns) once the canvas is painted.
   */
  readCanvas(id: string, options?: { checkLater?: boolean }): Promise<RevisedCanvas & { check?: () => Promise<void> }>;
  /**
   * Saves the durable record based on `baseRevision` (null: a new record); 409 `revision-conflict` when the record
   * moved on since. Resolves with the new revision.
   */
  putCanvas(
    document: CanvasDocument,
    /** `keepalive`: a page-hide save — sent so it outlives the page when its body fits the browsers' 64 KiB cap. */
    options: { keepalive?: boolean; baseRevision: string | null },
  ): Promise<{ updatedAt: number; revision: string }>;
  /**
   * `document` is exactly the durable record at `revision` (a canvas opened from rows marked exact): the next save
   * based on it sends only what changed since. It must hold the same record objects as the page's graph.
   */
  rememberSaved(revision: string, document: CanvasDocument): void;
  verifyCanvas(id: string): Promise<CanvasVerifyResponse>;
  deleteCanvas(id: string): Promise<void>;
  importCanvas(raw: unknown): Promise<CanvasDocument>;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const http = createHttpClient(options);
  const send = http.send;
  const call = http.json;
  const json = (method: string, body: unknown) => jsonInit(method, body);

  const saved = new SavedCopies();
  const encoder = new TextEncoder();
  const fitsKeepalive = (body: string) =>
    body.length < 20_000 || (body.length < 60_000 && encoder.encode(body).length < 60_000);

  return {
    models: () => call('/api/models', ModelsResponseSchema),
    settings: () => call('/api/settings', SettingsResponseSchema),
    saveSettings: (update) => call('/api/settings', SettingsResponseSchema, json('PUT', update)),
    webSearch: () => call('/api/web-search', WebSearchSettingsSchema),
    saveWebSearch: (update) => call('/api/web-search', WebSearchSettingsSchema, json('PUT', update)),
    teamIndex: () => call('/api/team-index', TeamIndexSettingsSchema),
    saveTeamIndex: (update) => call('/api/team-index', TeamIndexSettingsSchema, json('PUT', update)),
    testTeamIndex: () => call('/api/team-index/test', TeamIndexCheckSchema, { method: 'POST' }),
    mcpServers: () => call('/api/mcp/servers', McpServersResponseSchema),
    mcpTools: () => call('/api/mcp/tools', McpToolsResponseSchema),
    testProvider: (providerId) =>
      call(`/api/providers/${encodeURIComponent(providerId)}/test`, ProviderTestResponseSchema, { method: 'POST' }),
    sessionRoots: () => call('/api/session-roots', SessionRootsResponseSchema),
    addSessionRoot: (path) => call('/api/session-roots', SessionRootsResponseSchema, json('POST', { path })),
    removeSessionRoot: (path) => call('/api/session-roots', SessionRootsResponseSchema, json('DELETE', { path })),
    sessionArchive: () => call('/api/session-archive', SessionArchiveHealthSchema),
    verifySessionArchive: () => call('/api/session-archive/verify', SessionArchiveHealthSchema, { method: 'POST' }),
    decide: (request) => call('/api/decide', DecideResponseSchema, json('POST', request)),
    plaque: (request) => call('/api/plaque', PlaqueResponseSchema, json('POST', request)),
    checksFigure: (request) => call('/api/figures/checks', ResultsFigureResponseSchema, json('POST', request)),
    rubricCheck: (request) => call('/api/checks/rubric', RubricCheckResponseSchema, json('POST', request)),
    fetchUrl: (url) => call('/api/materials/url', UrlMaterialResponseSchema, json('POST', { url })),
    startImport: (file, name) =>
      call(`/api/imports/conversations?name=${encodeURIComponent(name)}`, ImportStatusSchema, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: file,
      }),
    importStatus: (importId) => call(`/api/imports/${encodeURIComponent(importId)}`, ImportStatusSchema),
    cancelImport: (importId) =>
      call(`/api/imports/${encodeURIComponent(importId)}`, ImportStatusSchema, { method: 'DELETE' }),
    readDocument: (file, name) =>
      call(`/api/materials/document?name=${encodeURIComponent(name)}`, DocumentMaterialResponseSchema, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: file,
      }),
    extractPdf: (bytes) =>
      call('/api/materials/pdf', PdfMaterialResponseSchema, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: bytes,
      }),
    listCanvases: async () => (await call('/api/canvases', CanvasListResponseSchema)).canvases,
    getCanvas: (id) => call(`/api/canvases/${encodeURIComponent(id)}`, CanvasDocumentSchema),
    readCanvas: async (id, options) => {
      // Records one per line, assembled as they arrive (a 20,000-node canvas is tens of MB).
      const response = await send(`/api/canvases/${encodeURIComponent(id)}`, {
        headers: { accept: 'application/x-ndjson, application/json;q=0.5' },
      });
      const streamed = response.ok && (response.headers.get('content-type') ?? '').startsWith('application/x-ndjson');
      const revision = /^"([0-9a-f]{64})"$/.exec(response.headers.get('etag') ?? '')?.[1];
      if (streamed && options?.checkLater) {
        if (!revision) throw new ApiClientError('bad-response', 'The server sent the canvas without its revision.');
        const { document, check } = await readCanvasRecordsUnchecked(response);
        saved.remember(revision, document);
        return { document, revision, check };
      }
      const document = streamed ? await readCanvasRecords(response) : await readJson(response, CanvasDocumentSchema);
      if (!revision) throw new ApiClientError('bad-response', 'The server sent the canvas without its revision.');
      saved.remember(revision, document);
      return { document, revision };
    },
    putCanvas: async (document, options) => {
      const path = `/api/canvases/${encodeURIComponent(document.canvas.id)}`;
      const patch = saved.patchFor(document, options.baseRevision);
      const init = json(patch ? 'PATCH' : 'PUT', patch ?? document);
      // Browsers cap keepalive bodies at 64 KiB (all of a page's in flight): a page-hide save that fits — a PATCH,
      // usually, even of a large canvas — outlives the page; a larger body goes as a normal request.
      if (options.keepalive && fitsKeepalive(init.body as string)) init.keepalive = true;
      if (options.baseRevision) init.headers = { ...init.headers, 'if-match': `"${options.baseRevision}"` };
      try {
        const result = await call(path, CanvasSavedResponseSchema, init);
        saved.remember(result.revision, document);
        return { updatedAt: result.updatedAt, revision: result.revision };
      } catch (error) {
        saved.forget(document.canvas.id);
        throw error;
      }
    },
    rememberSaved: (revision, document) => saved.remember(revision, document),
    verifyCanvas: (id) => call(`/api/canvases/${encodeURIComponent(id)}/verify`, CanvasVerifyResponseSchema),
    deleteCanvas: async (id) => {
      saved.forget(id);
      await call(`/api/canvases/${encodeURIComponent(id)}`, OkResponseSchema, { method: 'DELETE' });
    },
    importCanvas: (raw) => call('/api/canvases/import', CanvasDocumentSchema, json('POST', raw)),
  };
}
