import type { z } from 'zod';
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  RecallPlanResponseSchema,
  RecallReachEstimateSchema,
  type RecallPlanRequest,
  type RecallPlanResponse,
  type RecallReachEstimate,
} from '../../../protocol/index.ts';
import { authorizationHeaders, readJson, type ApiClientOptions } from '../api/api-client.ts';
import { ApiClientError, describeError } from '../api/api-error.ts';

export type RecallEntry =
  { state: 'loading' } | { state: 'ready'; plan: RecallPlanResponse } | { state: 'failed'; message: string };

export interface RecallView {
  /** Plans by their request (canonical JSON of it): the preview and the node list read the same one. */
  plans: Record<string, RecallEntry>;
}

/**
 * Recall into an ask (C16) from the app: plans fetched from `POST /api/recall/plan`, cached by their request so
 * the node's list and the will-send preview show the same block, and fetched fresh by each run. The server's
 * plan is deterministic, so the run's block equals the preview's for the same index, question and setting.
 */
export interface RecallClient {
  view: StoreApi<RecallView>;
  /** The cached entry for `request`, fetching it when there is none yet. */
  entryFor(request: RecallPlanRequest): RecallEntry;
  /** A fresh plan (the run's), also cached for the preview. */
  plan(request: RecallPlanRequest): Promise<RecallPlanResponse>;
  /** What the judge would read at the node's reach: shown before a full reach runs. */
  reach(request: RecallPlanRequest): Promise<RecallReachEstimate>;
  /** Asks the person to confirm a full reach (count, time, price); every time, never remembered. */
  confirmFull(estimate: RecallReachEstimate): boolean;
}

export function recallCacheKey(request: RecallPlanRequest): string {
  return JSON.stringify([
    request.question,
    request.canvasId,
    request.nodeId ?? null,
    request.workingDirectory,
    request.setting,
    request.contextWindow,
  ]);
}

export function describeReach(estimate: RecallReachEstimate): string {
  const price = estimate.price === null ? 'price unknown' : `about $${estimate.price.toFixed(4)}`;
  return `A full reach has ${estimate.judgeModelId ?? 'no decision model'} read ${estimate.candidates} excerpts in ${estimate.requests} requests (about ${Math.ceil(estimate.seconds)} s, ${price}).`;
}

export function createRecallClient(
  options: ApiClientOptions = {},
  confirm: (message: string) => boolean = (message) => globalThis.confirm(message),
): RecallClient {
  const baseUrl = options.baseUrl ?? '';
  const view = createStore<RecallView>(() => ({ plans: {} }));
  async function post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    let response: Response;
    try {
      response = await fetch(baseUrl + path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { ...authorizationHeaders(options), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiClientError('network', `Could not reach the local server (${(error as Error).message}).`);
    }
    return readJson(response, schema);
  }
  const store = (key: string, entry: RecallEntry) =>
    view.setState((state) => ({ plans: { ...state.plans, [key]: entry } }));

  async function plan(request: RecallPlanRequest): Promise<RecallPlanResponse> {
    const key = recallCacheKey(request);
    try {
      const planned = await post('/api/recall/plan', request, RecallPlanResponseSchema);
      store(key, { state: 'ready', plan: planned });
      return planned;
    } catch (error) {
      store(key, { state: 'failed', message: describeError(error).message });
      throw error;
    }
  }

  return {
    view,
    entryFor(request) {
      const key = recallCacheKey(request);
      const known = view.getState().plans[key];
      if (known) return known;
      const loading: RecallEntry = { state: 'loading' };
      store(key, loading);
      // A full reach is planned only after the person confirms it, at the run: the list shows the light plan.
      plan(request.setting.reach === 'full' ? { ...request, setting: { ...request.setting, reach: 'light' } } : request)
        .then((planned) => store(key, { state: 'ready', plan: planned }))
        .catch(() => undefined);
      return loading;
    },
    plan,
    reach: (request) => post('/api/recall/reach', request, RecallReachEstimateSchema),
    confirmFull: (estimate) => confirm(`${describeReach(estimate)}\n\nRun the full reach for this ask?`),
  };
}

/** The page's one client (same origin, cookie auth). */
export const recallClient = createRecallClient();
