import { readPutAsides } from '../../runtime/fs/index.ts';
import express, { type Router } from 'express';
import { RecallPlanRequestSchema, type RecallPlanResponse } from '../../protocol/index.ts';
import {
  checkRecallScope,
  planRecallFromIndex,
  readRecallSources,
  RelevanceMemo,
  storedDossiers,
  type RecallSources,
} from '../../runtime/recall/index.ts';
import type { DossierSource } from '../../src/core/recall/index.ts';
import { atlasServiceFor } from '../atlas/atlas-registry.ts';
import { dossierStoreFor, topicStoreFor } from './dossier-services.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/**
 * Recall into an ask (C16) over HTTP: `POST /api/recall/plan` answers the block, its items and every omission
 * with its reason (the preview and the run both call it, so their hashes agree); `POST /api/recall/reach` answers
 * what the judge would read at the node's reach (count, time, price) without calling it, for the confirmation a
 * full reach always asks. A full reach without `confirmFull` is refused (428 `recall-full-unconfirmed`).
 *
 * Both read the scope from the stored canvas and node (`checkRecallScope`), never from the body.
 *
 * Dossiers come from the dossier store (C15) unless a test passes its own `dossiers`.
 */
export function recallRoute(context: ServerContext, dossiers?: DossierSource): Router {
  const router = express.Router();
  const json = jsonBody(512 * 1024);
  const topics = topicStoreFor(context);
  // One memo per server: the preview's plan and the run's plan of an ask get the same relevance, so the same block.
  const relevanceMemo = new RelevanceMemo((text) => context.hash.sha256Hex(text));

  async function sources(): Promise<RecallSources> {
    return readRecallSources({
      database: await atlasServiceFor(context).turnDatabase(),
      canvases: context.canvases,
      topics,
      dossiers: (record) => dossiers ?? storedDossiers(dossierStoreFor(context), record),
      judgeModelId: (await context.settings.read()).judgeModelId ?? null,
      models: () => context.registry.listModels(),
      decide: (request) => context.judge.decide(request),
      hash: context.hash,
      relevanceMemo,
      putAsides: readPutAsides(context.home),
    });
  }

  router.post('/recall/plan', json, async (request, response) => {
    const body = validateBody(RecallPlanRequestSchema, request.body);
    await checkRecallScope(context.canvases, body);
    const plan: RecallPlanResponse = await planRecallFromIndex(await sources(), body);
    response.json(plan);
  });

  router.post('/recall/reach', json, async (request, response) => {
    const body = validateBody(RecallPlanRequestSchema, request.body);
    await checkRecallScope(context.canvases, body);
    const plan = await planRecallFromIndex(await sources(), body, { dryRun: true });
    response.json(plan.reach);
  });

  return router;
}
