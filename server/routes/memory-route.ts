import { randomUUID } from 'node:crypto';
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import {
  MemoryAcceptRequestSchema,
  MemoryCanvasSwitchSchema,
  MemoryEditRequestSchema,
  MemoryImportRequestSchema,
  MemoryJudgeRequestSchema,
  MemoryLineRequestSchema,
  MEMORY_DOCUMENTS,
  noteAuthor,
  questionAuthor,
  versionQuestionAuthor,
  type CanvasDocument,
  type MemoryActivity,
  type MemoryInboxResponse,
  type MemoryJudgeResponse,
  type MemoryStateResponse,
  type MemoryWriteResponse,
  WeftError,
} from '../../protocol/index.ts';
import { graphFromDocument, type EventDraft } from '../../src/core/index.ts';
import {
  acceptProposal,
  addLine,
  deleteLine,
  editLine,
  exchangeFromCanvas,
  memoryBlock,
  memoryReadingOf,
  type ExchangeLookupCode,
  importProfile,
  importedEvent,
  switchedEvent,
  unrecordedEvent,
  liftRefusal,
  inboxPage,
  lineKnownAs,
  rejectProposal,
  type InboxDecisionCode,
  profileFromMarkdown,
  profileToMarkdown,
  undoWrites,
  type PersonEditCode,
  type PersonWordsLookup,
} from '../../src/core/memory/index.ts';
import {
  judgeExchange,
  UndoBook,
  AdditionsWindow,
  turnPutAside,
  type StoredMemory,
} from '../../runtime/memory/index.ts';
import { fileProjectFacts } from '../../runtime/dossiers/index.ts';
import { dossierStoreFor, topicStoreFor } from './dossier-services.ts';
import { memoryStoreFor } from './memory-store-for.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';
import { baseRevisionOf } from './canvases-route.ts';

const EDIT_MESSAGES: Record<PersonEditCode, string> = {
  empty: 'A line needs some text.',
  'not-one-line': 'A line is one line: no line breaks.',
  credential: 'That looks like a key, token, password or card number; it is never stored in memory.',
  duplicate: 'A current line already says that.',
  'unknown-line': 'There is no current line with that id.',
  'unknown-refusal': 'There is no refusal with that id.',
  'nothing-to-undo': 'There is nothing to undo.',
  'changed-since': 'The profile changed since that admission; it can no longer be undone as a whole.',
  invalid: 'The change would store an invalid line.',
};

/** The largest Inbox page; the page asks for what its window shows. */
const MAX_INBOX_PAGE = 1000;
const InboxQuerySchema = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_INBOX_PAGE).default(200),
});

const EXCHANGE_STATUS: Record<ExchangeLookupCode, number> = {
  'exchange-unknown': 404,
  'exchange-mismatch': 409,
  'not-an-ask': 400,
  'exchange-unrecorded': 409,
};

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

function editError(code: PersonEditCode): WeftError {
  const status = code === 'unknown-line' || code === 'unknown-refusal' ? 404 : code === 'changed-since' ? 409 : 400;
  return new WeftError(`memory-${code}`, EDIT_MESSAGES[code], status);
}

/**
 * The profile (C14) over HTTP: `GET /memory` (profile + activity, ETag), person edits with `If-Match` (409 on a
 * stale copy), the judge after an ask, Undo, refusals, the per-canvas [Memory] switch and Markdown export/import.
 */
export function memoryRoute(context: ServerContext): Router {
  const router = express.Router();
  const json = jsonBody(8 * 1024 * 1024);
  const now = context.now;
  const newId = () => randomUUID();
  const store = memoryStoreFor(context);
  const visits = new AdditionsWindow(now);
  const undos = new UndoBook(now, newId);

  const published = (stored: StoredMemory) => {
    context.hub.publish({ type: 'memory-changed', revision: stored.revision });
    return stored;
  };
  const activityEntry = (fields: Pick<MemoryActivity, 'kind'> & Partial<MemoryActivity>): MemoryActivity => ({
    id: newId(),
    at: now(),
    path: null,
    reason: null,
    category: null,
    text: null,
    span: null,
    canvasId: null,
    nodeId: null,
    commitHash: null,
    lineId: null,
    ...fields,
  });
  const sendWrite = (response: Response, stored: StoredMemory, events: EventDraft[], lineId: string | null) => {
    response.setHeader('ETag', `"${stored.revision}"`);
    const body: MemoryWriteResponse = { revision: stored.revision, events, lineId };
    response.json(body);
  };
  const ifMatch = (header: string | undefined) => {
    const base = baseRevisionOf(header);
    if (base === null)
      throw new WeftError('revision-required', 'A memory edit names its base revision in If-Match.', 428);
    return base;
  };

  router.get('/memory', async (_request, response) => {
    const stored = await store.read();
    const { judgeModelId } = await context.settings.read();
    const body: MemoryStateResponse = {
      profile: stored.profile,
      revision: stored.revision,
      activity: stored.journal.activity,
      offCanvases: stored.journal.offCanvases,
      judgeModelId: judgeModelId ?? null,
      knownAs: Object.fromEntries(
        MEMORY_DOCUMENTS.flatMap((document) => stored.profile.documents[document]).map((line) => [
          line.id,
          lineKnownAs(line),
        ]),
      ),
    };
    response.setHeader('ETag', `"${stored.revision}"`);
    response.json(body);
  });

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

  router.post('/memory/undo/:id', async (request, response) => {
    const pending = undos.take(String(request.params.id));
    if (!pending) throw new WeftError('memory-undo-expired', 'That admission can no longer be undone.', 410);
    const { stored, result } = await store.update(null, (current) => {
      const undone = undoWrites(pending.before, pending.after, current.profile, pending.lineIds, { now: now(), newId });
      if (!undone.ok) throw editError(undone.error);
      const activity = [activityEntry({ kind: 'undone', canvasId: pending.canvasId, lineId: pending.lineIds[0] })];
      return { change: { profile: undone.value.profile, events: undone.value.events, activity }, result: undone.value };
    });
    sendWrite(response, published(stored), result.events, null);
  });

  router.post('/memory/lines', json, async (request, response) => {
    const body = validateBody(MemoryLineRequestSchema, request.body);
    const { stored, result } = await store.update(ifMatch(request.headers['if-match']), (current) => {
      const added = addLine(current.profile, body.document, body.text, { now: now(), newId });
      if (!added.ok) throw editError(added.error);
      return { change: { profile: added.value.profile, events: added.value.events }, result: added.value };
    });
    sendWrite(response, published(stored), result.events, result.lineId);
  });

  router.put('/memory/lines/:id', json, async (request, response) => {
    const body = validateBody(MemoryEditRequestSchema, request.body);
    const { stored, result } = await store.update(ifMatch(request.headers['if-match']), (current) => {
      const edited = editLine(current.profile, String(request.params.id), body.text, { now: now(), newId });
      if (!edited.ok) throw editError(edited.error);
      return { change: { profile: edited.value.profile, events: edited.value.events }, result: edited.value };
    });
    sendWrite(response, published(stored), result.events, result.lineId);
  });

  router.delete('/memory/lines/:id', async (request, response) => {
    const { stored, result } = await store.update(ifMatch(request.headers['if-match']), (current) => {
      const deleted = deleteLine(current.profile, String(request.params.id), { now: now(), newId });
      if (!deleted.ok) throw editError(deleted.error);
      return { change: { profile: deleted.value.profile, events: deleted.value.events }, result: deleted.value };
    });
    sendWrite(response, published(stored), result.events, null);
  });

  router.delete('/memory/refusals/:id', async (request, response) => {
    const { stored, result } = await store.update(ifMatch(request.headers['if-match']), (current) => {
      const lifted = liftRefusal(current.profile, String(request.params.id));
      if (!lifted.ok) throw editError(lifted.error);
      return { change: { profile: lifted.value.profile, events: lifted.value.events }, result: lifted.value };
    });
    sendWrite(response, published(stored), result.events, null);
  });

  router.put('/memory/canvases/:id', json, async (request, response) => {
    const { enabled } = validateBody(MemoryCanvasSwitchSchema, request.body);
    const id = String(request.params.id);
    const { stored, result } = await store.update(null, (current) => {
      const others = current.journal.offCanvases.filter((canvasId) => canvasId !== id);
      const offCanvases = enabled ? others : [...others, id].sort();
      const events = [switchedEvent(id, enabled)];
      return { change: { offCanvases, events }, result: events };
    });
    sendWrite(response, published(stored), result, null);
  });

  router.get('/memory/export', async (_request, response) => {
    const stored = await store.read();
    response.setHeader('Content-Type', 'text/markdown; charset=utf-8');
    response.setHeader('Content-Disposition', 'attachment; filename="weft-memory.md"');
    response.send(profileToMarkdown(stored.profile));
  });

  router.post('/memory/import', json, async (request, response) => {
    const { markdown } = validateBody(MemoryImportRequestSchema, request.body);
    const read = profileFromMarkdown(markdown);
    if (!read.ok) throw new WeftError(`memory-${read.error.code}`, read.error.message, 400);
    const personWords = await canvasWords(context, read.value);
    const { stored, result } = await store.update(ifMatch(request.headers['if-match']), (current) => {
      const imported = importProfile(current.profile, read.value, now(), personWords);
      if (!imported.ok)
        throw new WeftError('memory-import-credential', 'The import holds what looks like a key or password.', 400);
      const { profile, refused, importedOver } = imported.value;
      const events = [importedEvent(countLines(profile), profile.refusals.length, importedOver)];
      return { change: { profile, events }, result: { events, refused } };
    });
    const { revision } = published(stored);
    response.setHeader('ETag', `"${revision}"`);
    const body: MemoryWriteResponse = {
      revision,
      events: result.events,
      lineId: null,
      refused: result.refused,
    };
    response.json(body);
  });

  return router;
}

/**
 * What the person wrote at each imported line's origin, read from the canvases here (the questions asked at the
 * origin node and the canvas's notes), so an imported `stated` line keeps its label only if its span is among them.
 */
async function canvasWords(context: ServerContext, profile: StoredMemory['profile']): Promise<PersonWordsLookup> {
  const canvasIds = new Set(
    [...profile.documents.preferences, ...profile.documents.identity].flatMap((line) =>
      line.origin.canvasId ? [line.origin.canvasId] : [],
    ),
  );
  const documents = new Map<string, CanvasDocument>();
  for (const id of canvasIds) {
    try {
      documents.set(id, (await context.canvases.read(id)).document);
    } catch {
      // An unknown or unreadable canvas vouches for nothing: its lines fail the check.
    }
  }
  return (origin) => {
    const document = origin.canvasId ? documents.get(origin.canvasId) : undefined;
    if (!document) return null;
    return document.nodes.flatMap((node) => {
      if (node.kind === 'note') return noteAuthor(node) === 'person' ? [node.text] : [];
      // Only questions the person wrote: a model's sub-question or Weft's synthesis vouches for nothing (C14).
      if (node.kind === 'question' && node.id === origin.nodeId)
        return [
          ...(questionAuthor(node) === 'person' ? [node.question] : []),
          ...node.versions.flatMap((version) =>
            versionQuestionAuthor(node, version) === 'person' ? [version.question] : [],
          ),
        ];
      return [];
    });
  };
}

function countLines(profile: StoredMemory['profile']): number {
  return profile.documents.preferences.length + profile.documents.identity.length;
}
