import { z } from 'zod';
import { DossierSentenceInboxSchema, type DossierSentenceInbox } from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/dossier-sentences…` (issue 29.1): dossier sentences waiting for review, and the decision. */
export interface DossierSentencesApi {
  /** One page newest first; `cursor` is the previous page's `nextCursor`. */
  list(query?: { cursor: string | null; limit: number }): Promise<DossierSentenceInbox>;
  accept(id: string): Promise<unknown>;
  reject(id: string): Promise<unknown>;
}

export function createDossierSentencesApi(options: ApiClientOptions = {}): DossierSentencesApi {
  const http = createHttpClient(options);
  const decide = (id: string, decision: 'accept' | 'reject') =>
    http.json(`/api/dossier-sentences/${encodeURIComponent(id)}/${decision}`, z.unknown(), jsonInit('POST', undefined));
  return {
    list: (query = { cursor: null, limit: 100 }) => {
      const search = new URLSearchParams({ limit: String(query.limit) });
      if (query.cursor) search.set('cursor', query.cursor);
      return http.json(`/api/dossier-sentences?${search}`, DossierSentenceInboxSchema);
    },
    accept: (id) => decide(id, 'accept'),
    reject: (id) => decide(id, 'reject'),
  };
}

/** The page's one client (same origin, cookie auth). */
export const dossierSentencesApi = createDossierSentencesApi();
