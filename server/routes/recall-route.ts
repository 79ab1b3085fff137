import { randomUUID } from 'node:crypto';
import express, { type Router } from 'express';
import { RecallPlanRequestSchema, type CanvasDocument, type RecallPlanResponse } from '../../protocol/index.ts';
import { memoryDirectory } from '../../runtime/memory/index.ts';
import { NO_DOSSIERS, planRecallFromIndex, type RecallSources } from '../../runtime/recall/index.ts';
import { TopicStore } from '../../runtime/topics/index.ts';
import type { DossierSource } from '../../src/core/recall/index.ts';
import { atlasServiceFor } from '../atlas/atlas-registry.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/**
 * Recall into an ask (C16) over HTTP: `POST /api/recall/plan` answers the block, its items and every omission
 * with its reason (the preview and the run both call it, so their hashes agree); `POST /api/recall/reach` answers
 * what the judge would read at the node's reach (count, time, price) without calling it, for the confirmation a
 * full reach always asks. A full reach without `confirmFull` is refused (428 `recall-full-unconfirmed`).
 *
 * `dossiers` defaults to none until the lead wires in the dossier store at merge (the planner handles dossiers).
 */
export function recallRoute(context: ServerContext, dossiers: DossierSource = NO_DOSSIERS): Router {
  const router = express.Router();
  const json = jsonBody(512 * 1024);
  const topics = new TopicStore({
    directory: memoryDirectory(context.home),
    now: () => Date.now(),
    newId: () => randomUUID(),
    hash: context.hash,
  });

  async function sources(): Promise<RecallSources> {
    const database = await atlasServiceFor(context).recallDatabase();
    const { canvases: summaries } = await context.canvases.list();
    const canvases: CanvasDocument[] = [];
    for (const summary of summaries) {
      const stored = await context.canvases.read(summary.id).catch(() => null);
      if (stored) canvases.push(stored.document);
    }
    const { judgeModelId } = await context.settings.read();
    const price = judgeModelId
      ? ((await context.registry.listModels()).models.find((model) => model.id === judgeModelId)?.pricePerMTokIn ??
        null)
      : null;
    return {
      database,
      canvases,
      topics: (await topics.read()).record,
      dossiers,
      judge: judgeModelId
        ? { decide: (request) => context.judge.decide(request), modelId: judgeModelId, pricePerMTokIn: price }
        : null,
      hash: context.hash,
    };
  }

  router.post('/recall/plan', json, async (request, response) => {
    const body = validateBody(RecallPlanRequestSchema, request.body);
    const plan: RecallPlanResponse = await planRecallFromIndex(await sources(), body);
    response.json(plan);
  });

  router.post('/recall/reach', json, async (request, response) => {
    const body = validateBody(RecallPlanRequestSchema, request.body);
    const plan = await planRecallFromIndex(await sources(), body, { dryRun: true });
    response.json(plan.reach);
  });

  return router;
}
