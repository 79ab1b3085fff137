import { z } from 'zod';
import {
  LabelJobSchema,
  LabelPlanSchema,
  TopicLabelsSchema,
  TopicsStateSchema,
  type LabelJob,
  type LabelPlan,
  type TopicLabels,
  type TopicsState,
} from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from '../api/index.ts';

/** Typed client of `/api/topics…` (C15). Table edits carry the revision they were based on (409 when stale). */
export interface TopicsApi {
  state(): Promise<TopicsState>;
  create(revision: string, name: string): Promise<TopicsState>;
  rename(revision: string, id: string, name: string): Promise<TopicsState>;
  merge(revision: string, id: string, into: string): Promise<TopicsState>;
  remove(revision: string, id: string): Promise<TopicsState>;
  plan(): Promise<LabelPlan>;
  /** Starts the run the person saw: the plan's judge and counts are sent and checked by the server. */
  start(plan: LabelPlan): Promise<unknown>;
  job(): Promise<LabelJob>;
  stop(): Promise<unknown>;
  /** A topic's labelled turns (where each is from, its opening line, judge or name match). */
  labels(id: string): Promise<TopicLabels>;
  /** The person takes a topic off one turn; no later run gives it back while the turn is unchanged. */
  unlabel(revision: string, id: string, turnKey: string): Promise<TopicsState>;
}

export function createTopicsApi(options: ApiClientOptions = {}): TopicsApi {
  const http = createHttpClient(options);
  const call = <T>(
    path: string,
    schema: z.ZodType<T>,
    method = 'GET',
    revision: string | null = null,
    body?: unknown,
  ) => http.json(path, schema, jsonInit(method, body, revision ? { 'if-match': `"${revision}"` } : {}));
  const topic = (id: string) => `/api/topics/${encodeURIComponent(id)}`;
  return {
    state: () => call('/api/topics', TopicsStateSchema),
    create: (revision, name) => call('/api/topics', TopicsStateSchema, 'POST', revision, { name }),
    rename: (revision, id, name) => call(topic(id), TopicsStateSchema, 'PATCH', revision, { name }),
    merge: (revision, id, into) => call(`${topic(id)}/merge`, TopicsStateSchema, 'POST', revision, { into }),
    remove: (revision, id) => call(topic(id), TopicsStateSchema, 'DELETE', revision),
    plan: () => call('/api/topics/label/plan', LabelPlanSchema),
    start: (plan: LabelPlan) =>
      call('/api/topics/label', z.unknown(), 'POST', null, {
        judgeModelId: plan.judgeModelId,
        toLabel: plan.toLabel,
        requests: plan.requests,
      }),
    job: () => call('/api/topics/label', LabelJobSchema),
    stop: () => call('/api/topics/label/stop', z.unknown(), 'POST', null, {}),
    labels: (id) => call(`${topic(id)}/labels`, TopicLabelsSchema),
    unlabel: (revision, id, turnKey) =>
      call(`${topic(id)}/labels/${encodeURIComponent(turnKey)}`, TopicsStateSchema, 'DELETE', revision),
  };
}

/** The page's one client (same origin, cookie auth). */
export const topicsApi = createTopicsApi();
