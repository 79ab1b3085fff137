import express, { type Router } from 'express';
import { MemoryJudgeRequestSchema, type MemoryJudgeResponse, WeftError } from '../../protocol/index.ts';
import { graphFromDocument } from '../../src/core/index.ts';
import {
  exchangeFromCanvas,
  memoryBlock,
  memoryReadingOf,
  unrecordedEvent,
  type ExchangeLookupCode,
} from '../../src/core/memory/index.ts';
import { judgeExchange, turnPutAside } from '../../runtime/memory/index.ts';
import { fileProjectFacts } from '../../runtime/dossiers/index.ts';
import { dossierStoreFor, topicStoreFor } from './dossier-services.ts';
import type { MemoryRouteKit } from './memory-route-kit.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

const EXCHANGE_STATUS: Record<ExchangeLookupCode, number> = {
  'exchange-unknown': 404,
  'exchange-mismatch': 409,
  'not-an-ask': 400,
  'exchange-unrecorded': 409,
};

/**
 * `POST /memory/judge` (C14): the judge after an ask, on an exchange the server reads from the stored canvas and
 * its own commit ledger (never words from the caller); admitted project facts are filed to their topics' dossiers.
 */
export function memoryJudgeRoute(context: ServerContext, kit: MemoryRouteKit): Router {
  const router = express.Router();
  const { store, now, newId, visits, undos, json, published } = kit;

  router.post('/memory/judge', json, async (request, response) => {
    const body = validateBody(MemoryJudgeRequestSchema, request.body);
    // The person's words come from the stored canvas, never from the caller (C14). The page saves its canvas
    // before it asks for a judgement, so a version not stored yet is a refusal, not a wait.
    // Whether the version was really asked and answered comes from the server's own commit ledger (issue 27.3).
    const stored = await context.canvases.read(body.canvasId).catch(() => null);
    const graph = stored ? graphFromDocument(stored.document) : null;
    const asked = graph?.nodes.get(body.nodeId);
    const recorded = await context.commits.recorded(body.commitHash);
    const found = graph
      ? exchangeFromCanvas(graph, body, {
          // #29.4: a fact holds from the turn that stated it (its recorded commit), not from when the judge ran.
          at: recorded.length > 0 ? Math.min(...recorded.map((commit) => commit.at)) : now(),
          // The block as this node read memory (#29), so its lines are known as sent text, never the person's words.
          memoryBlock: memoryBlock(
            (await store.read()).profile,
            memoryReadingOf(asked?.kind === 'question' ? asked : null),
          ),
          hash: context.hash,
          recorded,
          othersWords: await context.canvases.othersWords(body.canvasId),
        })
      : null;
    if (!found || !found.ok) {
      const code = found?.error.code ?? 'exchange-unknown';
      // A version the server never committed is a claim worth keeping on record, not only a refusal.
      if (code === 'exchange-unrecorded') {
        const refused = await store.update(null, () => ({ change: { events: [unrecordedEvent(body)] }, result: null }));
        published(refused.stored);
      }
      throw new WeftError(`memory-${code}`, found?.error.message ?? 'No such canvas is stored.', EXCHANGE_STATUS[code]);
    }
    // Issue 29.2: a turn the person archived, deleted or whose words they put aside is nothing memory learns from.
    if (await turnPutAside(context.canvases, context.home, body, context.hash))
      throw new WeftError(
        'memory-turn-put-aside',
        'That turn is put aside (archived or deleted): memory leaves it out.',
        409,
      );
    const { judgeModelId, memoryAutoAccept } = await context.settings.read();
    const judged = await judgeExchange(body, found.value, {
      store,
      decide: (decision) => context.judge.decide(decision),
      compose: (system, prompt) => context.judge.compose(system, prompt),
      judgeModelId: judgeModelId ?? null,
      autoAccept: memoryAutoAccept?.profileFacts ?? false,
      visits,
      undos,
      now,
      newId,
    });
    // Project facts belong to a topic's dossier (C15): filed to the topics of this turn, or the general inbox.
    const filed = await fileProjectFacts(dossierStoreFor(context), topicStoreFor(context), body, judged.activity);
    context.logger.info('memory judged', {
      filed,
      path: judged.path,
      decisions: judged.activity.length,
      written: judged.undo?.lineIds.length ?? 0,
    });
    if (judged.activity.length > 0) context.hub.publish({ type: 'memory-changed', revision: judged.revision });
    const answer: MemoryJudgeResponse = judged;
    response.json(answer);
  });

  return router;
}
