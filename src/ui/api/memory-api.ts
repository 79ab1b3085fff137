import { z } from 'zod';
import {
  MemoryJudgeResponseSchema,
  MemoryStateResponseSchema,
  MemoryWriteResponseSchema,
  type MemoryDocumentName,
  type MemoryJudgeRequest,
  type MemoryJudgeResponse,
  type MemoryStateResponse,
  type MemoryWriteResponse,
} from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, readJson, type ApiClientOptions } from './http-client.ts';

/** Typed client of `/api/memory…`. Person edits carry the revision they were based on (409 when stale). */
export interface MemoryApi {
  state(): Promise<MemoryStateResponse>;
  judge(request: MemoryJudgeRequest): Promise<MemoryJudgeResponse>;
  undo(undoId: string): Promise<MemoryWriteResponse>;
  addLine(revision: string, document: MemoryDocumentName, text: string): Promise<MemoryWriteResponse>;
  editLine(revision: string, lineId: string, text: string): Promise<MemoryWriteResponse>;
  deleteLine(revision: string, lineId: string): Promise<MemoryWriteResponse>;
  liftRefusal(revision: string, refusalId: string): Promise<MemoryWriteResponse>;
  setCanvas(canvasId: string, enabled: boolean): Promise<MemoryWriteResponse>;
  exportMarkdown(): Promise<string>;
  importMarkdown(revision: string, markdown: string): Promise<MemoryWriteResponse>;
}

export function createMemoryApi(options: ApiClientOptions = {}): MemoryApi {
  const http = createHttpClient(options);
  const call = http.json;
  const write = (method: string, revision: string | null, body?: unknown): RequestInit =>
    jsonInit(method, body, revision ? { 'if-match': `"${revision}"` } : {});
  const line = (id: string) => `/api/memory/lines/${encodeURIComponent(id)}`;
  return {
    state: () => call('/api/memory', MemoryStateResponseSchema),
    judge: (request) => call('/api/memory/judge', MemoryJudgeResponseSchema, write('POST', null, request)),
    undo: (undoId) =>
      call(`/api/memory/undo/${encodeURIComponent(undoId)}`, MemoryWriteResponseSchema, write('POST', null)),
    addLine: (revision, document, text) =>
      call('/api/memory/lines', MemoryWriteResponseSchema, write('POST', revision, { document, text })),
    editLine: (revision, lineId, text) =>
      call(line(lineId), MemoryWriteResponseSchema, write('PUT', revision, { text })),
    deleteLine: (revision, lineId) => call(line(lineId), MemoryWriteResponseSchema, write('DELETE', revision)),
    liftRefusal: (revision, refusalId) =>
      call(
        `/api/memory/refusals/${encodeURIComponent(refusalId)}`,
        MemoryWriteResponseSchema,
        write('DELETE', revision),
      ),
    setCanvas: (canvasId, enabled) =>
      call(
        `/api/memory/canvases/${encodeURIComponent(canvasId)}`,
        MemoryWriteResponseSchema,
        write('PUT', null, { enabled }),
      ),
    exportMarkdown: async () => {
      const response = await http.send('/api/memory/export');
      if (!response.ok) await readJson(response, z.unknown());
      return response.text();
    },
    importMarkdown: (revision, markdown) =>
      call('/api/memory/import', MemoryWriteResponseSchema, write('POST', revision, { markdown })),
  };
}
