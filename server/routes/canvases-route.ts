import { jsonBody } from '../read-body.ts';
import express, { type Router } from 'express';
import { CanvasPatchSchema, migrateCanvasDocument, WeftError } from '../../protocol/index.ts';
import { validateBody } from '../validate-body.ts';
import { sendCanvasRecords } from './canvas-records-stream.ts';
import type { CanvasListResponse, CanvasSavedResponse, CanvasVerifyResponse } from '../../protocol/index.ts';
import { assertCanvasId } from '../../runtime/fs/index.ts';
import type { ServerContext } from '../server-context.ts';

export const CANVAS_BODY_LIMIT = 64 * 1024 * 1024;

/** Durable canvas records (C26): list, read, atomic write, delete, and import validation. */
export function canvasesRoute(context: ServerContext): Router {
  const router = express.Router();
  const json = jsonBody(CANVAS_BODY_LIMIT);

  router.get('/canvases', async (_request, response) => {
    const { canvases, unreadable } = await context.canvases.list();
    if (unreadable.length) context.logger.warn('unreadable canvas records skipped', { ids: unreadable });
    const body: CanvasListResponse = { canvases };
    response.json(body);
  });

  // Import only checks and migrates; nothing is stored until the UI PUTs the result.
  router.post('/canvases/import', json, (request, response) => {
    const loaded = migrateCanvasDocument(request.body);
    if (!loaded.ok) {
      const code = loaded.error.code === 'newer-version' ? 'newer-version' : 'invalid-canvas';
      throw new WeftError(code, loaded.error.message, code === 'newer-version' ? 409 : 400);
    }
    response.json(loaded.document);
  });

  router.get('/canvases/:id', async (request, response) => {
    const { document, revision } = await context.canvases.read(String(request.params.id));
    // The revision rides in the ETag, so the body stays the plain `.weft.json` document.
    response.setHeader('ETag', `"${revision}"`);
    response.setHeader('Cache-Control', 'no-store');
    // A page asks for records one per line, so it can read a large canvas as it arrives.
    if (request.accepts(['application/json', 'application/x-ndjson']) === 'application/x-ndjson')
      return sendCanvasRecords(response, document);
    response.json(document);
  });

  router.get('/canvases/:id/verify', async (request, response) => {
    const id = String(request.params.id);
    const { verdict, head, recreatedAfter } = await context.canvases.verify(id);
    const body: CanvasVerifyResponse = {
      id,
      verdict,
      head: head ? { eventCount: head.eventCount, lastEventHash: head.lastEventHash } : null,
      recreatedAfter,
    };
    response.json(body);
  });

  router.put(
    '/canvases/:id',
    (request, _response, next) => {
      // Refuse a bad id before the body is read.
      assertCanvasId(String(request.params.id));
      next();
    },
    json,
    async (request, response) => {
      const { document, updatedAt, revision } = await context.canvases.write(String(request.params.id), request.body, {
        baseRevision: baseRevisionOf(request.headers['if-match']),
      });
      context.backup.schedule(document);
      context.hub.publish({ type: 'canvas-changed', id: document.canvas.id, revision });
      const body: CanvasSavedResponse = { ok: true, updatedAt, revision };
      response.json(body);
    },
  );

  // Only the records that changed since the revision in If-Match (required): a small edit sends a small body.
  router.patch(
    '/canvases/:id',
    (request, _response, next) => {
      assertCanvasId(String(request.params.id));
      next();
    },
    json,
    async (request, response) => {
      const baseRevision = baseRevisionOf(request.headers['if-match']);
      if (!baseRevision)
        throw new WeftError('bad-request', 'A canvas change must name its base revision in If-Match.', 400);
      const patch = validateBody(CanvasPatchSchema, request.body);
      const { document, updatedAt, revision } = await context.canvases.patch(String(request.params.id), patch, {
        baseRevision,
      });
      context.backup.schedule(document);
      context.hub.publish({ type: 'canvas-changed', id: document.canvas.id, revision });
      const body: CanvasSavedResponse = { ok: true, updatedAt, revision };
      response.json(body);
    },
  );

  router.delete('/canvases/:id', async (request, response) => {
    // A debounced backup still pending would bring the deleted canvas back into the backup folder: dropped before
    // the delete (which records its turns' put-asides, and so takes a moment) and again after it.
    await context.backup.discard(String(request.params.id));
    const removed = await context.canvases.delete(String(request.params.id));
    await context.backup.discard(String(request.params.id));
    if (!removed) throw new WeftError('not-found', `No canvas record "${String(request.params.id)}".`, 404);
    // Its side chat (C17) goes with it: nothing of a deleted canvas stays behind.
    await context.chats.remove(String(request.params.id));
    context.hub.publish({ type: 'canvas-deleted', id: String(request.params.id) });
    response.json({ ok: true });
  });
  return router;
}

/** `If-Match: "<revision>"` names the revision a save was based on; no header means "a new record". */
export function baseRevisionOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^\s*(?:W\/)?"([0-9a-f]{64})"\s*$/.exec(header);
  if (!match) throw new WeftError('bad-request', 'If-Match must be one quoted canvas revision.', 400);
  return match[1]!;
}
