import {
  MemoryInboxResponseSchema,
  MemoryWriteResponseSchema,
  type MemoryInboxResponse,
  type MemoryWriteResponse,
} from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/memory/inbox…` (issue 29.1): the proposals waiting for review, and the decision on one. */
export interface InboxApi {
  /** One page newest first; `cursor` is the previous page's `nextCursor`. */
  list(query?: { cursor: string | null; limit: number }): Promise<MemoryInboxResponse>;
  /** `text`: the line as the person edited it before accepting. */
  accept(proposalId: string, text?: string): Promise<MemoryWriteResponse>;
  reject(proposalId: string): Promise<MemoryWriteResponse>;
}

export function createInboxApi(options: ApiClientOptions = {}): InboxApi {
  const http = createHttpClient(options);
  const path = (id: string, decision: string) => `/api/memory/inbox/${encodeURIComponent(id)}/${decision}`;
  return {
    list: (query = { cursor: null, limit: 100 }) => {
      const search = new URLSearchParams({ limit: String(query.limit) });
      if (query.cursor) search.set('cursor', query.cursor);
      return http.json(`/api/memory/inbox?${search}`, MemoryInboxResponseSchema);
    },
    accept: (id, text) =>
      http.json(path(id, 'accept'), MemoryWriteResponseSchema, jsonInit('POST', text === undefined ? {} : { text })),
    reject: (id) => http.json(path(id, 'reject'), MemoryWriteResponseSchema, jsonInit('POST', undefined)),
  };
}

/** The page's one client (same origin, cookie auth). */
export const inboxApi = createInboxApi();
