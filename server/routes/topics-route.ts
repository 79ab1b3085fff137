import { readPutAsides } from '../../runtime/fs/index.ts';
import { randomUUID } from 'node:crypto';
import express, { type Response, type Router } from 'express';
import {
  LabelStartRequestSchema,
  TopicMergeRequestSchema,
  TopicNameRequestSchema,
  type LabelPlan,
  type TopicLabels,
  type TopicRecord,
  type TopicsState,
  WeftError,
} from '../../protocol/index.ts';
import type { EventDraft, Result } from '../../src/core/index.ts';
import {
  createTopic,
  deleteTopic,
  mergeTopic,
  planLabelling,
  removeLabel,
  renameTopic,
  type LabelRemovalCode,
  type LabelWork,
  type TopicEditCode,
} from '../../src/core/topics/index.ts';
import { memoryDirectory } from '../../runtime/memory/index.ts';
import {
  canvasTurns,
  judgeRequestTokens,
  LabelJobRunner,
  labelledTurns,
  TopicStore,
  type StoredTopics,
} from '../../runtime/topics/index.ts';
import { atlasServiceFor } from '../atlas/atlas-registry.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';
import { baseRevisionOf } from './canvases-route.ts';
import { dossierStoreFor } from './dossier-services.ts';

const EDIT_MESSAGES: Record<TopicEditCode, string> = {
  'empty-name': 'A topic needs a name.',
  'name-too-long': 'A topic name is at most 80 characters.',
  'duplicate-name': 'A topic with that name already exists.',
  'unknown-topic': 'There is no topic with that id.',
  'merge-into-self': 'A topic cannot be merged into itself.',
  'too-many': 'At most 49 topics (the decision model takes 50 options, one of them "none").',
};

function editError(code: TopicEditCode | LabelRemovalCode): WeftError {
  if (code === 'not-labelled')
    return new WeftError('topic-not-labelled', 'That turn is not labelled with this topic.', 404);
  return new WeftError(`topic-${code}`, EDIT_MESSAGES[code], code === 'unknown-topic' ? 404 : 400);
}

/**
 * Topics (C15) over HTTP: the person's table (create, rename, merge, delete, each naming its base revision in
 * If-Match), the labelling plan shown before a run, and the run itself — started only by this request, one at a
 * time, with progress to poll and a stop switch.
 */
export function topicsRoute(context: ServerContext): Router {
  const router = express.Router();
  const json = jsonBody(64 * 1024);
  const now = () => Date.now();
  const store = new TopicStore({
    directory: memoryDirectory(context.home),
    now,
    newId: () => randomUUID(),
    hash: context.hash,
  });
  const runner = new LabelJobRunner();

  const send = (response: Response, stored: StoredTopics) => {
    const body: TopicsState = { record: stored.record, revision: stored.revision, job: runner.status() };
    response.setHeader('ETag', `"${stored.revision}"`);
    response.json(body);
  };
  const ifMatch = (header: string | undefined) => {
    const base = baseRevisionOf(header);
    if (base === null)
      throw new WeftError('revision-required', 'A topic edit names its base revision in If-Match.', 428);
    return base;
  };
  const edit = async (
    response: Response,
    header: string | undefined,
    change: (
      record: TopicRecord,
    ) => Result<{ record: TopicRecord; event: EventDraft }, TopicEditCode | LabelRemovalCode>,
    after?: () => void,
  ) => {
    const { stored } = await store.update(ifMatch(header), ({ record }) => {
      const edited = change(record);
      if (!edited.ok) throw editError(edited.error);
      return { record: edited.value.record, events: [edited.value.event], result: null };
    });
    after?.();
    send(response, stored);
  };

  const plan = async (): Promise<{ plan: LabelPlan; work: LabelWork[]; stored: StoredTopics }> => {
    const stored = await store.read();
    const turns = [
      ...(await atlasServiceFor(context).labelTurns()),
      ...(await canvasTurns(context.canvases, readPutAsides(context.home))),
    ];
    const { judgeModelId } = await context.settings.read();
    const judge = judgeModelId ?? null;
    const price = judge
      ? ((await context.registry.listModels()).models.find((model) => model.id === judge)?.pricePerMTokIn ?? null)
      : null;
    return {
      ...planLabelling(turns, stored.record, {
        hash: context.hash,
        judgeModelId: judge,
        pricePerMTokIn: price,
        requestTokens: judgeRequestTokens,
      }),
      stored,
    };
  };

  router.get('/topics', async (_request, response) => send(response, await store.read()));

  router.post('/topics', json, async (request, response) => {
    const { name } = validateBody(TopicNameRequestSchema, request.body);
    await edit(response, request.headers['if-match'], (record) =>
      createTopic(record, name, { now: now(), newId: () => randomUUID() }),
    );
  });

  router.patch('/topics/:id', json, async (request, response) => {
    const { name } = validateBody(TopicNameRequestSchema, request.body);
    await edit(response, request.headers['if-match'], (record) => renameTopic(record, String(request.params.id), name));
  });

  router.post('/topics/:id/merge', json, async (request, response) => {
    const { into } = validateBody(TopicMergeRequestSchema, request.body);
    const id = String(request.params.id);
    // The merged topic's pending project facts go to the kept topic's dossier (C15).
    await edit(
      response,
      request.headers['if-match'],
      (record) => mergeTopic(record, id, into),
      () => dossierStoreFor(context).moveFacts(id, into),
    );
  });

  router.delete('/topics/:id', async (request, response) => {
    const id = String(request.params.id);
    // A deleted topic's pending project facts wait in the general inbox for the person to file or discard.
    await edit(
      response,
      request.headers['if-match'],
      (record) => deleteTopic(record, id),
      () => dossierStoreFor(context).moveFacts(id, null),
    );
  });

  // The turns a topic labels, for the person to check; removing one is their decision (no run gives it back).
  router.get('/topics/:id/labels', async (request, response) => {
    const { record } = await store.read();
    const topic = record.topics.find((candidate) => candidate.id === request.params.id);
    if (!topic) throw editError('unknown-topic');
    const sources = {
      database: await atlasServiceFor(context).turnDatabase(),
      canvases: context.canvases,
      putAsides: readPutAsides(context.home),
    };
    const body: TopicLabels = { topic, turns: await labelledTurns(record, topic.id, sources) };
    response.json(body);
  });

  router.delete('/topics/:id/labels/:turnKey', async (request, response) => {
    const [id, turnKey] = [String(request.params.id), String(request.params.turnKey)];
    await edit(response, request.headers['if-match'], (record) => removeLabel(record, id, turnKey, now()));
  });

  router.get('/topics/label/plan', async (_request, response) => {
    response.json((await plan()).plan);
  });

  router.get('/topics/label', (_request, response) => {
    response.json(runner.status());
  });

  router.post('/topics/label', json, async (request, response) => {
    const seen = validateBody(LabelStartRequestSchema, request.body);
    const { plan: planned, work, stored } = await plan();
    // The run is the plan the person confirmed: a judge set meanwhile, or other turns, would send what they never saw.
    if (
      seen.judgeModelId !== planned.judgeModelId ||
      seen.toLabel !== planned.toLabel ||
      seen.requests !== planned.requests
    )
      throw new WeftError(
        'label-plan-changed',
        'The labelling plan changed since it was shown; look at it again.',
        409,
      );
    if (stored.record.topics.length === 0)
      throw new WeftError('topics-none', 'Create a topic first: there is nothing to label turns with.', 400);
    const finished = runner.start({
      store,
      work,
      topics: stored.record.topics,
      reused: planned.reused,
      judged: planned.judgeModelId !== null,
      decider: context.judge,
      now,
    });
    finished.catch((error: unknown) => context.logger.warn('labelling failed', { message: String(error) }));
    response.status(202).json({ plan: planned, job: runner.status() });
  });

  router.post('/topics/label/stop', (_request, response) => {
    response.json({ stopped: runner.stop(), job: runner.status() });
  });

  return router;
}
