import { z } from 'zod';
import { DossierSentenceInboxSchema, type DossierSentenceInbox } from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/dossier-sentences…` (issue 29.1): dossier sentences waiting for review, and the decision. */
export interface DossierSentencesApi {
  list(): Promise<DossierSentenceInbox>;
  accept(id: string): Promise<unknown>;
  reject(id: string): Promise<unknown>;
}

export function createDossierSentencesApi(options: ApiClientOptions = {}): DossierSentencesApi {
  const http = createHttpClient(options);
  const decide = (id: string, decision: 'accept' | 'reject') =>
    http.json(`/api/dossier-sentences/${encodeURIComponent(id)}/${decision}`, z.unknown(), jsonInit('POST', undefined));
  return {
    list: () => http.json('/api/dossier-sentences', DossierSentenceInboxSchema),
    accept: (id) => decide(id, 'accept'),
    reject: (id) => decide(id, 'reject'),
  };
}

/** The page's one client (same origin, cookie auth). */
export const dossierSentencesApi = createDossierSentencesApi();
