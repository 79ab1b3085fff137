import express, { type Router } from 'express';
import {
  MemoryCanvasSwitchSchema,
  MemoryEditRequestSchema,
  MemoryLineRequestSchema,
  MEMORY_DOCUMENTS,
  type MemoryActivity,
  type MemoryStateResponse,
  WeftError,
} from '../../protocol/index.ts';
import {
  addLine,
  deleteLine,
  editLine,
  switchedEvent,
  liftRefusal,
  lineKnownAs,
  undoWrites,
  type PersonEditCode,
} from '../../src/core/memory/index.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';
import { memoryInboxRoute } from './memory-inbox-route.ts';
import { memoryJudgeRoute } from './memory-judge-route.ts';
import { memoryMarkdownRoute } from './memory-markdown-route.ts';
import { memoryRouteKit } from './memory-route-kit.ts';

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

function editError(code: PersonEditCode): WeftError {
  const status = code === 'unknown-line' || code === 'unknown-refusal' ? 404 : code === 'changed-since' ? 409 : 400;
  return new WeftError(`memory-${code}`, EDIT_MESSAGES[code], status);
}

/**
 * The profile (C14) over HTTP: `GET /memory` (profile + activity, ETag), person edits with `If-Match` (409 on a
 * stale copy), the judge after an ask (`memory-judge-route.ts`), the Inbox (`memory-inbox-route.ts`), Undo,
 * refusals, the per-canvas [Memory] switch and Markdown export/import (`memory-markdown-route.ts`).
 */
export function memoryRoute(context: ServerContext): Router {
  const router = express.Router();
  const kit = memoryRouteKit(context);
  const { store, now, newId, undos, json, published, sendWrite, ifMatch } = kit;
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

  router.use(memoryJudgeRoute(context, kit));
  router.use(memoryInboxRoute(context, kit));

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

  router.use(memoryMarkdownRoute(context, kit));

  return router;
}
