import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  RecallPlanResponseSchema,
  RecallReachEstimateSchema,
  type RecallPlanRequest,
  type RecallPlanResponse,
  type RecallReachEstimate,
} from '../../../protocol/index.ts';
import { createHttpClient, describeError, jsonInit, type ApiClientOptions } from '../api/index.ts';

/**
 * A plan as the node and the preview show it. `standIn` is true while a full reach waits for the person's
 * confirmation: the plan shown is then the light reach's, not the block the ask will send.
 */
export type RecallEntry =
  | { state: 'loading' }
  | { state: 'ready'; plan: RecallPlanResponse; standIn: boolean }
  | { state: 'failed'; message: string };

export interface RecallView {
  /** Plans by their request (canonical JSON of it): the preview and the node list read the same one. */
  plans: Record<string, RecallEntry>;
  /** Bumped by `invalidate`: a hook showing a plan fetches it again. */
  epoch: number;
}

/**
 * Recall into an ask (C16) from the app: plans fetched from `POST /api/recall/plan`, cached by their request so
 * the node's list and the will-send preview show the same block, and fetched fresh by each run. The server's
 * plan is deterministic, so the run's block equals the preview's for the same index, question and setting.
 */
export interface RecallClient {
  view: StoreApi<RecallView>;
  /**
   * What recall reads changed (a canvas saved here or elsewhere, a session grew, memory changed): bumps `epoch`, so
   * each shown plan is fetched again (`refresh`). The plans stay shown meanwhile: a preview never drops to "loading".
   */
  invalidate(): void;
  /**
   * Fetches `request`'s plan again and replaces the entry when it arrives (the old one stays shown until then; a
   * failure keeps it). A confirmed full reach is kept as it is: asking again could call the judge, which costs, and
   * the run plans afresh anyway. Without an entry yet, the same as `entryFor`.
   */
  refresh(request: RecallPlanRequest): void;
  /** The cached entry for `request`, fetching it when there is none yet. */
  entryFor(request: RecallPlanRequest): RecallEntry;
  /** A fresh plan (the run's), also cached for the preview. */
  plan(request: RecallPlanRequest): Promise<RecallPlanResponse>;
  /** What the judge would read at the node's reach: shown before a full reach runs. */
  reach(request: RecallPlanRequest): Promise<RecallReachEstimate>;
  /** Asks the person to confirm a full reach (count, time, price). */
  confirmFull(estimate: RecallReachEstimate): boolean;
  /**
   * A full reach's plan: the one the person already confirmed for this exact request (what the preview shows), else
   * its estimate is shown for confirmation and, confirmed, the full reach is planned once (the judge reads every
   * excerpt in scope) and kept for the preview and the ask. Null when the person declines.
   */
  confirmedFullPlan(request: RecallPlanRequest): Promise<RecallPlanResponse | null>;
}

export function recallCacheKey(request: RecallPlanRequest): string {
  return JSON.stringify([
    request.question,
    request.canvasId,
    request.nodeId ?? null,
    request.workingDirectory,
    request.setting,
    request.contextWindow,
    // #29: the node's memory reading (the inferred switch, the "as of" date) changes what the plan reads.
    request.memoryReading ?? null,
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
  const http = createHttpClient(options);
  const view = createStore<RecallView>(() => ({ plans: {}, epoch: 0 }));
  const reach = (request: RecallPlanRequest) =>
    http.json('/api/recall/reach', RecallReachEstimateSchema, jsonInit('POST', request));
  const confirmFull = (estimate: RecallReachEstimate) =>
    confirm(`${describeReach(estimate)}\n\nRun the full reach for this ask?`);
  const store = (key: string, entry: RecallEntry) =>
    view.setState((state) => ({ plans: { ...state.plans, [key]: entry } }));

  async function plan(request: RecallPlanRequest): Promise<RecallPlanResponse> {
    const key = recallCacheKey(request);
    try {
      const planned = await http.json('/api/recall/plan', RecallPlanResponseSchema, jsonInit('POST', request));
      store(key, { state: 'ready', plan: planned, standIn: false });
      return planned;
    } catch (error) {
      store(key, { state: 'failed', message: describeError(error).message });
      throw error;
    }
  }

  return {
    view,
    invalidate() {
      view.setState((state) => ({ epoch: state.epoch + 1 }));
    },
    refresh(request) {
      const key = recallCacheKey(request);
      const known = view.getState().plans[key];
      if (!known) {
        this.entryFor(request);
        return;
      }
      if (known.state === 'loading' || (known.state === 'ready' && !known.standIn && request.setting.reach === 'full'))
        return;
      const full = request.setting.reach === 'full';
      http
        .json(
          '/api/recall/plan',
          RecallPlanResponseSchema,
          jsonInit('POST', full ? { ...request, setting: { ...request.setting, reach: 'light' } } : request),
        )
        .then((planned) => {
          // A confirmation that landed meanwhile is not overwritten by the stand-in.
          const now = view.getState().plans[key];
          if (now?.state !== 'ready' || now.standIn || !full)
            store(key, { state: 'ready', plan: planned, standIn: full });
        })
        .catch(() => undefined);
    },
    entryFor(request) {
      const key = recallCacheKey(request);
      const known = view.getState().plans[key];
      if (known) return known;
      const loading: RecallEntry = { state: 'loading' };
      store(key, loading);
      // A full reach is planned only once the person confirms it: until then the list and the preview show the
      // light plan, marked as a stand-in.
      const full = request.setting.reach === 'full';
      plan(full ? { ...request, setting: { ...request.setting, reach: 'light' } } : request)
        .then((planned) => {
          // A confirmation that landed meanwhile is not overwritten by the stand-in.
          const now = view.getState().plans[key];
          if (now?.state !== 'ready' || now.standIn) store(key, { state: 'ready', plan: planned, standIn: full });
        })
        .catch(() => undefined);
      return loading;
    },
    plan,
    reach,
    confirmFull,
    async confirmedFullPlan(request) {
      const known = view.getState().plans[recallCacheKey(request)];
      if (known?.state === 'ready' && !known.standIn) return known.plan;
      if (!confirmFull(await reach(request))) return null;
      // The server keeps the judge's answer for these openings, so planning this request again gives these bytes.
      return plan({ ...request, confirmFull: true });
    },
  };
}

/** The page's one client (same origin, cookie auth). */
export const recallClient = createRecallClient();
