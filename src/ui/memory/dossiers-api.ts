import { z } from 'zod';
import {
  DossierListSchema,
  DossierPlanSchema,
  DossierSchema,
  DossierViewSchema,
  PendingFactSchema,
  type Dossier,
  type DossierList,
  type DossierMode,
  type DossierPlan,
  type DossierView,
  type PendingFact,
} from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, readJson, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/dossiers…` and `/api/dossier-inbox…` (C15). */
export interface DossiersApi {
  list(): Promise<DossierList>;
  view(topicId: string): Promise<DossierView>;
  version(topicId: string, version: number): Promise<Dossier>;
  plan(topicId: string, mode: DossierMode): Promise<DossierPlan>;
  /** Runs exactly the plan the person saw: its turns and facts, nothing filed since. */
  build(plan: DossierPlan): Promise<DossierView>;
  /** Strikes one sentence of the current dossier (issue 29.2): its words are put aside; the view without it. */
  strike(topicId: string, sentenceId: string): Promise<DossierView>;
  fileInbox(factId: string, topicId: string): Promise<PendingFact>;
  discardInbox(factId: string): Promise<unknown>;
}

export function createDossiersApi(options: ApiClientOptions = {}): DossiersApi {
  const http = createHttpClient(options);
  async function call<T>(path: string, schema: z.ZodType<T>, method = 'GET', body?: unknown) {
    const response = await http.send(path, jsonInit(method, body));
    if (response.status === 204) return null as T;
    return readJson(response, schema);
  }
  const topic = (id: string) => `/api/dossiers/${encodeURIComponent(id)}`;
  return {
    list: () => call('/api/dossiers', DossierListSchema),
    view: (id) => call(topic(id), DossierViewSchema),
    version: (id, version) => call(`${topic(id)}/versions/${version}`, DossierSchema),
    plan: (id, mode) => call(`${topic(id)}/plan?mode=${mode}`, DossierPlanSchema),
    build: (plan) =>
      call(`${topic(plan.topicId)}/build`, DossierViewSchema, 'POST', {
        mode: plan.mode,
        ...(plan.modelId ? { modelId: plan.modelId } : {}),
        turnKeys: plan.turns.map((turn) => turn.turnKey),
        factIds: plan.facts.map((fact) => fact.id),
      }),
    strike: (id, sentenceId) =>
      call(`${topic(id)}/sentences/${encodeURIComponent(sentenceId)}/strike`, DossierViewSchema, 'POST'),
    fileInbox: (factId, topicId) =>
      call(`/api/dossier-inbox/${encodeURIComponent(factId)}/file`, PendingFactSchema, 'POST', { topicId }),
    discardInbox: (factId) => call(`/api/dossier-inbox/${encodeURIComponent(factId)}`, z.unknown(), 'DELETE'),
  };
}

/** The page's one client (same origin, cookie auth). */
export const dossiersApi = createDossiersApi();
