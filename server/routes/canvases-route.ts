import { jsonBody } from '../read-body.ts';
import express, { type Router } from 'express';
import { migrateCanvasDocument } from '../../protocol/canvas-migrations.ts';
import type { CanvasListResponse, CanvasSavedResponse } from '../../protocol/http-api.ts';
import { assertCanvasId } from '../../runtime/fs/canvas-records.ts';
import { WeftError } from '../../runtime/fs/weft-error.ts';
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
    const { document } = await context.canvases.read(String(request.params.id));
    response.json(document);
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
      const { document, updatedAt } = await context.canvases.write(String(request.params.id), request.body);
      context.backup.schedule(document);
      context.hub.publish({ type: 'canvas-changed', id: document.canvas.id });
      const body: CanvasSavedResponse = { ok: true, updatedAt };
      response.json(body);
    },
  );

  router.delete('/canvases/:id', async (request, response) => {
    const removed = await context.canvases.delete(String(request.params.id));
    // A debounced backup still pending would bring the deleted canvas back into the backup folder.
    await context.backup.discard(String(request.params.id));
    if (!removed) throw new WeftError('not-found', `No canvas record "${String(request.params.id)}".`, 404);
    context.hub.publish({ type: 'canvas-deleted', id: String(request.params.id) });
    response.json({ ok: true });
  });
  return router;
}
