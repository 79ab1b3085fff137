import express, { type Router } from 'express';
import { z } from 'zod';
import { MemoryAcceptRequestSchema, type MemoryInboxResponse, WeftError } from '../../protocol/index.ts';
import { acceptProposal, inboxPage, rejectProposal, type InboxDecisionCode } from '../../src/core/memory/index.ts';
import { turnPutAside } from '../../runtime/memory/index.ts';
import type { MemoryRouteKit } from './memory-route-kit.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/** The largest Inbox page; the page asks for what its window shows. */
const MAX_INBOX_PAGE = 1000;
const InboxQuerySchema = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_INBOX_PAGE).default(200),
});

const DECISION_MESSAGES: Record<InboxDecisionCode, string> = {
  'unknown-proposal': 'There is no pending proposal with that id (it may have been decided already).',
  empty: 'A line needs some text.',
  'not-one-line': 'A line is one line: no line breaks.',
  credential: 'That looks like a key, token, password or card number; it is never stored in memory.',
  duplicate: 'A current line already says that.',
  invalid: 'The change would store an invalid line.',
};

function decisionError(code: InboxDecisionCode): WeftError {
  return new WeftError(`memory-${code}`, DECISION_MESSAGES[code], code === 'unknown-proposal' ? 404 : 400);
}

/** The Inbox (issue 29.1) over HTTP: its pages, and the person's accept (optionally edited) or reject of one. */
export function memoryInboxRoute(context: ServerContext, kit: MemoryRouteKit): Router {
  const router = express.Router();
  const { store, now, newId, json, published, sendWrite } = kit;

  // The Inbox (issue 29.1): proposals newest first; the person's decision names a proposal by its stable id.
  router.get('/memory/inbox', async (request, response) => {
    const query = InboxQuerySchema.safeParse(request.query);
    if (!query.success)
      throw new WeftError('invalid-query', `The inbox query is not valid: ${query.error.issues[0]?.message}`, 400);
    const [stored, settings] = await Promise.all([store.readInbox(), context.settings.read()]);
    const body: MemoryInboxResponse = {
      ...inboxPage(stored.inbox, { cursor: query.data.cursor ?? null, limit: query.data.limit }),
      revision: stored.revision,
      autoAccept: settings.memoryAutoAccept?.profileFacts ?? false,
    };
    response.json(body);
  });

  router.post('/memory/inbox/:id/accept', json, async (request, response) => {
    const { text } = validateBody(MemoryAcceptRequestSchema, request.body ?? {});
    const waiting = (await store.readInbox()).inbox.pending.find((each) => each.id === String(request.params.id));
    if (waiting && (await turnPutAside(context.canvases, context.home, waiting.origin, context.hash)))
      throw new WeftError(
        'memory-turn-put-aside',
        'The turn this proposal rests on is put aside (archived or deleted): reject it, or restore the turn first.',
        409,
      );
    const { stored, result } = await store.update(null, (current) => {
      const id = String(request.params.id);
      const accepted = acceptProposal(current.profile, current.inbox, id, text ?? null, { now: now(), newId });
      if (!accepted.ok) throw decisionError(accepted.error);
      const { profile, inbox, events } = accepted.value;
      return { change: { profile, inbox, events }, result: accepted.value };
    });
    sendWrite(response, published(stored), result.events, result.lineId);
  });

  router.post('/memory/inbox/:id/reject', async (request, response) => {
    const { stored, result } = await store.update(null, (current) => {
      const rejected = rejectProposal(current.profile, current.inbox, String(request.params.id), { now: now(), newId });
      if (!rejected.ok) throw decisionError(rejected.error);
      const { profile, inbox, events } = rejected.value;
      return { change: { profile, inbox, events }, result: rejected.value };
    });
    sendWrite(response, published(stored), result.events, null);
  });

  return router;
}
