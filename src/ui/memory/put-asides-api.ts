import { z } from 'zod';
import { PutAsideListResponseSchema, type PutAsideListResponse } from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/memory/put-asides…` (issue 29.2): the tombstones in force, and restoring one. */
export interface PutAsidesApi {
  /** One page newest first; `cursor` is the previous page's `nextCursor`. */
  list(query?: { cursor: string | null; limit: number }): Promise<PutAsideListResponse>;
  restore(id: string): Promise<unknown>;
}

export function createPutAsidesApi(options: ApiClientOptions = {}): PutAsidesApi {
  const http = createHttpClient(options);
  return {
    list: (query = { cursor: null, limit: 100 }) => {
      const search = new URLSearchParams({ limit: String(query.limit) });
      if (query.cursor) search.set('cursor', query.cursor);
      return http.json(`/api/memory/put-asides?${search}`, PutAsideListResponseSchema);
    },
    restore: (id) =>
      http.json(`/api/memory/put-asides/${encodeURIComponent(id)}/restore`, z.unknown(), jsonInit('POST', undefined)),
  };
}

/** The page's one client (same origin, cookie auth). */
export const putAsidesApi = createPutAsidesApi();
