import express, { type Router } from 'express';
import {
  DossierBuildRequestSchema,
  DossierModeSchema,
  InboxFileRequestSchema,
  PUT_ASIDE_EXCERPT_CHARS,
  type DossierList,
  type DossierView,
  WeftError,
} from '../../protocol/index.ts';
import { contentKey } from '../../src/core/index.ts';
import { sentenceEvent } from '../../src/core/memory/index.ts';
import { memoryStoreFor } from './memory-store-for.ts';
import { dossierSentences, sentenceValidity, struckCount, withoutStruck } from '../../src/core/dossiers/index.ts';
import {
  citedKnownAs,
  liveTurnKeys,
  planDossierRun,
  runDossier,
  sentenceStruck,
  type DossierRunContext,
} from '../../runtime/dossiers/index.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';
import {
  dossierModelInfo,
  dossierRunContext,
  dossierStoreFor,
  resolveDossierModel,
  topicStoreFor,
} from './dossier-services.ts';

async function knownTopic(context: ServerContext, topicId: string) {
  const topic = (await topicStoreFor(context).read()).record.topics.find((candidate) => candidate.id === topicId);
  if (!topic) throw new WeftError('topic-unknown-topic', 'There is no topic with that id.', 404);
  return topic;
}

/**
 * One topic's dossier as the memory page and the CLI show it: sentences whose sources all went are marked; the
 * sentences the person struck are left out and counted.
 */
export async function dossierView(run: DossierRunContext, topicId: string): Promise<DossierView> {
  const { store } = run;
  const stored = store.version(topicId, null);
  const isStruck = sentenceStruck(run.sources);
  const latest = stored && { ...stored, dossier: withoutStruck(stored.dossier, isStruck) };
  const cited = latest ? [...new Set(dossierSentences(latest.dossier).flatMap((sentence) => sentence.citations))] : [];
  const live = await liveTurnKeys(cited, run.sources);
  // #29.4: derived on read from every stored version; a strike ends no sentence's interval.
  const validity = stored ? sentenceValidity(store.versions(topicId), stored.summary.version, isStruck) : null;
  const { record } = await run.topics.read();
  const read = store.readKeys(topicId);
  const labelled = record.labels.filter((label) => label.topicIds.includes(topicId)).map((label) => label.turnKey);
  const present = await liveTurnKeys(labelled, run.sources);
  return {
    topicId,
    dossier: latest?.dossier ?? null,
    retired: latest ? store.retiredSentences(latest.dossier, (key) => live.has(key)) : [],
    struck: stored ? struckCount(stored.dossier, isStruck) : 0,
    dropped: latest?.dropped ?? [],
    history: store.history(topicId),
    validity: validity ? Object.fromEntries(validity) : {},
    citationKnownAs: await citedKnownAs(cited, run.sources, store.consumedFactKeys(topicId)),
    pendingFacts: store.pending(topicId),
    unreadTurns: [...present].filter((key) => !read.has(key)).length,
  };
}

/**
 * Dossiers (C15) over HTTP: the list with the general inbox, one topic's dossier (with history and its marked
 * sentences), the plan of a run (shown before it runs), the run the person confirmed, and the inbox actions.
 */
export function dossiersRoute(context: ServerContext): Router {
  const router = express.Router();
  const json = jsonBody(256 * 1024);

  router.get('/dossiers', async (_request, response) => {
    const store = dossierStoreFor(context);
    const { record } = await topicStoreFor(context).read();
    const versions = new Map(store.topics().map((entry) => [entry.topicId, entry.version]));
    const pending = store.pendingCounts();
    const body: DossierList = {
      dossiers: record.topics.map((topic) => ({
        topicId: topic.id,
        name: topic.name,
        version: versions.get(topic.id) ?? null,
        pending: pending.get(topic.id) ?? 0,
      })),
      inbox: store.pending(null),
    };
    response.json(body);
  });

  router.get('/dossiers/:topicId', async (request, response) => {
    const topicId = String(request.params.topicId);
    await knownTopic(context, topicId);
    response.json(await dossierView(await dossierRunContext(context), topicId));
  });

  router.get('/dossiers/:topicId/versions/:version', async (request, response) => {
    const stored = dossierStoreFor(context).version(String(request.params.topicId), Number(request.params.version));
    if (!stored) throw new WeftError('dossier-version-unknown', 'There is no such dossier version.', 404);
    // An older version still holds what the person struck since: History shows it without, as every read does.
    const run = await dossierRunContext(context);
    response.json(withoutStruck(stored.dossier, sentenceStruck(run.sources)));
  });

  router.get('/dossiers/:topicId/plan', async (request, response) => {
    const topicId = String(request.params.topicId);
    await knownTopic(context, topicId);
    const mode = DossierModeSchema.safeParse(request.query.mode ?? 'update');
    if (!mode.success) throw new WeftError('invalid-query', 'mode is update or rebuild.', 400);
    const named = typeof request.query.model === 'string' ? request.query.model : undefined;
    const model = await dossierModelInfo(context, named);
    response.json(await planDossierRun(await dossierRunContext(context), topicId, mode.data, model));
  });

  router.post('/dossiers/:topicId/build', json, async (request, response) => {
    const topicId = String(request.params.topicId);
    const body = validateBody(DossierBuildRequestSchema, request.body);
    await knownTopic(context, topicId);
    const model = await resolveDossierModel(context, body.modelId);
    const run = await dossierRunContext(context);
    const { version, consumed, proposed } = await runDossier(run, topicId, body, model);
    if (proposed.length > 0) {
      const { stored } = await memoryStoreFor(context).update(null, () => ({
        change: { events: proposed.map((proposal) => sentenceEvent('memory-proposed', proposal)) },
        result: null,
      }));
      context.hub.publish({ type: 'memory-changed', revision: stored.revision });
    }
    // Metadata only: never a sentence's words.
    context.logger.info('dossier written', {
      topic: topicId,
      version: version.summary.version,
      sentences: version.summary.sentences,
      dropped: version.summary.dropped,
      consumed: consumed.length,
      proposed: proposed.length,
    });
    response.json(await dossierView(run, topicId));
  });

  // Issue 29.2: the person strikes one sentence. A tombstone on its words (kind `dossier-sentence`) goes into the one
  // put-aside store, which journals it; every read of the dossier, recall and later updates leave the words out.
  router.post('/dossiers/:topicId/sentences/:sentenceId/strike', async (request, response) => {
    const topicId = String(request.params.topicId);
    const sentenceId = String(request.params.sentenceId);
    await knownTopic(context, topicId);
    const current = dossierStoreFor(context).read(topicId);
    const sentence = current && dossierSentences(current).find((each) => each.id === sentenceId);
    if (!sentence) throw new WeftError('dossier-sentence-unknown', 'The current dossier has no such sentence.', 404);
    await context.putAsides.append([
      {
        op: 'put-aside',
        key: contentKey('dossier-sentence', sentence.text, context.hash),
        kind: 'dossier-sentence',
        reason: 'struck',
        at: context.now(),
        origin: { topicId, sentenceId },
        excerpt: sentence.text.slice(0, PUT_ASIDE_EXCERPT_CHARS),
      },
    ]);
    context.logger.info('dossier sentence struck', { topic: topicId, sentence: sentenceId });
    response.json(await dossierView(await dossierRunContext(context), topicId));
  });

  router.post('/dossier-inbox/:factId/file', json, async (request, response) => {
    const { topicId } = validateBody(InboxFileRequestSchema, request.body);
    await knownTopic(context, topicId);
    response.json(dossierStoreFor(context).fileInboxFact(String(request.params.factId), topicId));
  });

  router.delete('/dossier-inbox/:factId', (request, response) => {
    dossierStoreFor(context).discardInboxFact(String(request.params.factId));
    response.status(204).end();
  });

  return router;
}
