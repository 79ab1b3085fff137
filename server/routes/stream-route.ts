import express, { type Router } from 'express';
import type { ServerContext } from '../server-context.ts';
import { openEventStream } from '../sse.ts';

export const KEEP_ALIVE_MS = 15_000;

/** `GET /api/stream`: server pushes (canvas-changed, settings-changed, mirror-appended…), with keep-alives. */
export function streamRoute(context: ServerContext): Router {
  const router = express.Router();
  router.get('/stream', (request, response) => {
    const stream = openEventStream(response);
    stream.comment('connected');
    const unsubscribe = context.hub.subscribe((event) => stream.send(event));
    const keepAlive = setInterval(() => stream.comment('keep-alive'), KEEP_ALIVE_MS);
    request.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
    });
  });
  return router;
}
