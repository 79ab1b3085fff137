import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type Router } from 'express';
import type { HealthResponse } from '../protocol/index.ts';
import { errorHandler, sendError } from './api-error.ts';
import { atlasRoute } from './routes/atlas-route.ts';
import { canvasesRoute } from './routes/canvases-route.ts';
import { decideRoute } from './routes/decide-route.ts';
import { generateRoute } from './routes/generate-route.ts';
import { generateSetRoute } from './routes/generate-set-route.ts';
import { importRoute } from './routes/import-route.ts';
import { materialsRoute } from './routes/materials-route.ts';
import { memoryJournalRoute } from './routes/memory-journal-route.ts';
import { memoryRoute } from './routes/memory-route.ts';
import { putAsidesRoute } from './routes/put-asides-route.ts';
import { topicsRoute } from './routes/topics-route.ts';
import { dossiersRoute } from './routes/dossiers-route.ts';
import { dossierSentencesRoute } from './routes/dossier-sentences-route.ts';
import { recallRoute } from './routes/recall-route.ts';
import { modelsRoute } from './routes/models-route.ts';
import { settingsRoute } from './routes/settings-route.ts';
import { sessionRootsRoute } from './routes/session-roots-route.ts';
import { sessionArchiveRoute } from './routes/session-archive-route.ts';
import { webSearchRoute } from './routes/web-search-route.ts';
import { teamIndexRoute } from './routes/team-index-route.ts';
import { mcpRoute } from './routes/mcp-route.ts';
import { providerTestRoute } from './routes/provider-test-route.ts';
import { streamRoute } from './routes/stream-route.ts';
import { agentRoute } from './routes/agent-route.ts';
import { plaqueRoute } from './routes/plaque-route.ts';
import { figuresRoute } from './routes/figures-route.ts';
import { rubricCheckRoute } from './routes/rubric-check-route.ts';
import { askCanvasRoute } from './routes/ask-canvas-route.ts';
import { hostGuard, originGuard, tokenGuard, tokenHandoff, type SecurityOptions } from './security.ts';
import type { ServerContext } from './server-context.ts';

/**
 * A strict policy for the UI: only same-origin code. `wasm-unsafe-eval` lets pdf.js compile its WebAssembly decoders
 * (no JS eval); `blob:` workers and images are what pdf.js and canvas exports create; inline styles are set by
 * React Flow. zod 4 probes `new Function` for its JIT and falls back to the interpreter when this forbids it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export interface AppOptions extends SecurityOptions {
  staticDir?: string;
  /** More `/api` routes (e.g. Atlas, why index), mounted behind the same guards and token. */
  apiRoutes?: readonly ((context: ServerContext) => Router)[];
}

/** The Express app: guards first (Host, Origin, token), then the API, then the built UI with SPA fallback. */
export function createApp(context: ServerContext, options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(hostGuard(options));
  app.use(originGuard(options));
  app.use((_request, response, next) => {
    response.set({
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
    next();
  });

  const api = express.Router();
  api.use(tokenGuard(options));
  api.use((_request, response, next) => {
    response.set('Cache-Control', 'no-store');
    next();
  });
  api.get('/health', (_request, response) => {
    const body: HealthResponse = { ok: true, version: context.version };
    response.json(body);
  });
  api.use(modelsRoute(context));
  api.use(generateRoute(context));
  api.use(generateSetRoute(context));
  api.use(decideRoute(context));
  api.use(plaqueRoute(context));
  api.use(figuresRoute(context));
  api.use(rubricCheckRoute(context));
  api.use(materialsRoute(context));
  api.use(canvasesRoute(context));
  api.use(importRoute()(context));
  api.use(settingsRoute(context));
  api.use(sessionRootsRoute(context));
  api.use(sessionArchiveRoute(context));
  api.use(webSearchRoute(context));
  api.use(teamIndexRoute(context));
  api.use(mcpRoute(context));
  api.use(providerTestRoute(context));
  api.use(memoryJournalRoute(context));
  api.use(memoryRoute(context));
  api.use(putAsidesRoute(context));
  api.use(topicsRoute(context));
  api.use(askCanvasRoute(context));
  api.use(dossiersRoute(context));
  api.use(dossierSentencesRoute(context));
  api.use(recallRoute(context));
  api.use(streamRoute(context));
  for (const route of options.apiRoutes ?? []) api.use(route(context));
  api.use(agentRoute(context));
  api.use(atlasRoute(context));
  api.use((request, response) =>
    sendError(response, 404, 'not-found', `No API route ${request.method} ${request.path}.`),
  );
  app.use('/api', api);

  app.use(tokenHandoff(options));
  const staticDir = options.staticDir;
  if (staticDir) {
    app.use(express.static(staticDir, { index: 'index.html', fallthrough: true }));
    const indexFile = join(staticDir, 'index.html');
    app.use((request, response, next) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return next();
      if (!existsSync(indexFile)) {
        sendError(response, 404, 'not-found', 'The app is not built yet: run `npm start` (it builds the UI first).');
        return;
      }
      response.sendFile(indexFile);
    });
  }
  app.use((request, response) => sendError(response, 404, 'not-found', `Nothing at ${request.path}.`));
  app.use(errorHandler(context.logger));
  return app;
}
