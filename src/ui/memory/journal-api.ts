import {
  MemoryJournalPageSchema,
  MemoryJournalVerifySchema,
  type MemoryJournalPage,
  type MemoryJournalVerdict,
  type MemoryJournalVerify,
} from '../../../protocol/index.ts';
import { createHttpClient, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/memory/journal…`: memory's two hash-chained journals, read and verified by the server. */
export interface JournalApi {
  /** One page newest first; `cursor` is the previous page's `nextCursor`. */
  page(query: {
    cursor: string | null;
    limit: number;
    verdict: MemoryJournalVerdict | null;
  }): Promise<MemoryJournalPage>;
  verify(): Promise<MemoryJournalVerify>;
}

export function createJournalApi(options: ApiClientOptions = {}): JournalApi {
  const http = createHttpClient(options);
  return {
    page: ({ cursor, limit, verdict }) => {
      const query = new URLSearchParams({ limit: String(limit) });
      if (cursor) query.set('cursor', cursor);
      if (verdict) query.set('verdict', verdict);
      return http.json(`/api/memory/journal?${query}`, MemoryJournalPageSchema);
    },
    verify: () => http.json('/api/memory/journal/verify', MemoryJournalVerifySchema),
  };
}

/** The page's one client (same origin, cookie auth). */
export const journalApi = createJournalApi();
