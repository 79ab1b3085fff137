import express, { type Router } from 'express';
import { z } from 'zod';
import { PUT_ASIDE_EXCERPT_CHARS, WeftError, type DossierSentenceInbox } from '../../protocol/index.ts';
import { contentKey, isPutAside } from '../../src/core/index.ts';
import { sentenceEvent } from '../../src/core/memory/index.ts';
import type { ServerContext } from '../server-context.ts';
import { dossierStoreFor, topicStoreFor } from './dossier-services.ts';
import { memoryStoreFor } from './memory-store-for.ts';

/** A page of the Inbox's dossier sentences: at most what a window shows, like the facts' Inbox. */
const PageQuerySchema = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/**
 * The dossier sentences waiting in the Inbox (issue 29.1): `GET /dossier-sentences` (newest first, a page at a time, with their topics' names),
 * `POST /dossier-sentences/:id/accept` (the next dossier version holds it) and `/reject` (its words put aside, so no
 * later update proposes them again). Every decision is an event in memory's hash-chained journal.
 */
export function dossierSentencesRoute(context: ServerContext): Router {
  const router = express.Router();
  const proposals = () => dossierStoreFor(context).sentenceProposals();
  const journal = async (event: ReturnType<typeof sentenceEvent>) => {
    const { stored } = await memoryStoreFor(context).update(null, () => ({
      change: { events: [event] },
      result: null,
    }));
    context.hub.publish({ type: 'memory-changed', revision: stored.revision });
  };

  router.get('/dossier-sentences', async (request, response) => {
    const query = PageQuerySchema.safeParse(request.query);
    if (!query.success)
      throw new WeftError('invalid-query', `The inbox query is not valid: ${query.error.issues[0]?.message}`, 400);
    const [{ memoryAutoAccept }, { record }] = await Promise.all([
      context.settings.read(),
      topicStoreFor(context).read(),
    ]);
    const page = proposals().page({ cursor: query.data.cursor ?? null, limit: query.data.limit });
    const shown = new Set(page.proposals.map((proposal) => proposal.topicId));
    const body: DossierSentenceInbox = {
      ...page,
      topicNames: Object.fromEntries(
        record.topics.filter((topic) => shown.has(topic.id)).map((topic) => [topic.id, topic.name]),
      ),
      autoAccept: memoryAutoAccept?.dossierSentences ?? true,
    };
    response.json(body);
  });

  router.post('/dossier-sentences/:id/accept', async (request, response) => {
    const id = String(request.params.id);
    // Words put aside since it was proposed (rejected in another topic, struck) stay aside: accepting them would
    // write a version every read then hides. The person restores the tombstone first (Memory → Put aside).
    const waiting = proposals()
      .pending()
      .find((proposal) => proposal.id === id);
    if (waiting && isPutAside(context.putAsides.keys(), 'dossier-sentence', waiting.text, context.hash))
      throw new WeftError(
        'dossier-sentence-put-aside',
        'These words are put aside (Memory → Put aside): restore them there before accepting this sentence.',
        409,
      );
    const { proposal, version } = proposals().accept(id);
    await journal(sentenceEvent('memory-accepted', proposal, { version }));
    response.json({ id: proposal.id, topicId: proposal.topicId, version });
  });

  router.post('/dossier-sentences/:id/reject', async (request, response) => {
    const proposal = proposals().reject(String(request.params.id));
    await journal(sentenceEvent('memory-rejected', proposal));
    // Rejected like a deleted line: the words are put aside, so no later update brings them back.
    await context.putAsides.append([
      {
        op: 'put-aside',
        key: contentKey('dossier-sentence', proposal.text, context.hash),
        kind: 'dossier-sentence',
        reason: 'rejected',
        at: context.now(),
        origin: { topicId: proposal.topicId, sentenceId: proposal.id },
        excerpt: proposal.text.slice(0, PUT_ASIDE_EXCERPT_CHARS),
      },
    ]);
    response.json({ id: proposal.id, rejected: true });
  });

  return router;
}
