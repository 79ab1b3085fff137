import {
  ApiErrorSchema,
  CanvasChatResponseSchema,
  type AskCanvasRequest,
  type CanvasChatResponse,
  type StreamEvent,
} from '../../../protocol/index.ts';
import {
  authorizationHeaders,
  readJson,
  type ApiClientOptions,
  ApiClientError,
  readServerSentEvents,
} from '../api/index.ts';

/** Typed client of `/api/ask-canvas/:canvasId` (C17): the stored chat, emptying it, and one streamed ask. */
export interface AskCanvasApi {
  chat(canvasId: string): Promise<CanvasChatResponse>;
  clear(canvasId: string): Promise<CanvasChatResponse>;
  ask(canvasId: string, body: AskCanvasRequest, signal: AbortSignal): AsyncGenerator<StreamEvent>;
}

export function createAskCanvasApi(options: ApiClientOptions = {}): AskCanvasApi {
  const baseUrl = options.baseUrl ?? '';
  const path = (canvasId: string) => `${baseUrl}/api/ask-canvas/${encodeURIComponent(canvasId)}`;
  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, {
        credentials: 'same-origin',
        ...init,
        headers: { ...authorizationHeaders(options), ...(init.headers as Record<string, string> | undefined) },
      });
    } catch (error) {
      if (init.signal?.aborted) throw new ApiClientError('aborted', 'Stopped.');
      throw new ApiClientError('network', `Could not reach the local server (${(error as Error).message}).`);
    }
  }
  return {
    chat: async (canvasId) => readJson(await send(path(canvasId), {}), CanvasChatResponseSchema),
    clear: async (canvasId) => readJson(await send(path(canvasId), { method: 'DELETE' }), CanvasChatResponseSchema),
    async *ask(canvasId, body, signal) {
      const response = await send(path(canvasId), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal,
      });
      if (!response.ok || !response.body) {
        const parsed = ApiErrorSchema.safeParse(await response.json().catch(() => null));
        if (parsed.success)
          throw new ApiClientError(parsed.data.error.code, parsed.data.error.message, response.status);
        throw new ApiClientError('http-' + response.status, `The server answered ${response.status}.`, response.status);
      }
      yield* readServerSentEvents(response.body);
    },
  };
}
