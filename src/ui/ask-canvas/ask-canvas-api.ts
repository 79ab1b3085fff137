import {
  CanvasChatResponseSchema,
  type AskCanvasRequest,
  type CanvasChatResponse,
  type StreamEvent,
} from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/ask-canvas/:canvasId` (C17): the stored chat, emptying it, and one streamed ask. */
export interface AskCanvasApi {
  chat(canvasId: string): Promise<CanvasChatResponse>;
  clear(canvasId: string): Promise<CanvasChatResponse>;
  ask(canvasId: string, body: AskCanvasRequest, signal: AbortSignal): AsyncGenerator<StreamEvent>;
}

export function createAskCanvasApi(options: ApiClientOptions = {}): AskCanvasApi {
  const http = createHttpClient(options);
  const path = (canvasId: string) => `/api/ask-canvas/${encodeURIComponent(canvasId)}`;
  return {
    chat: (canvasId) => http.json(path(canvasId), CanvasChatResponseSchema),
    clear: (canvasId) => http.json(path(canvasId), CanvasChatResponseSchema, { method: 'DELETE' }),
    ask: (canvasId, body, signal) => http.events(path(canvasId), { ...jsonInit('POST', body), signal }),
  };
}
