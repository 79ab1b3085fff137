import express, { type Router } from 'express';
import { BRAVE_SEARCH_KEY_ID, WebSearchUpdateSchema, type WebSearchSettings } from '../../protocol/index.ts';
import { BRAVE_SEARCH_URL } from '../../runtime/tools/index.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

async function current(context: ServerContext): Promise<WebSearchSettings> {
  const [config, key] = await Promise.all([context.webSearch.read(), context.secrets.getKey(BRAVE_SEARCH_KEY_ID)]);
  return { provider: config.provider, searxngUrl: config.searxngUrl, hasBraveKey: Boolean(key) };
}

/**
 * `GET/PUT /api/web-search` (C35): the web search service. The Brave key is write-only, stored in the secrets
 * file bound to Brave's origin and scrubbed from every log like a provider key; responses say `hasBraveKey`.
 */
export function webSearchRoute(context: ServerContext): Router {
  const router = express.Router();
  router.get('/web-search', async (_request, response) => {
    response.json(await current(context));
  });
  router.put('/web-search', jsonBody(16 * 1024), async (request, response) => {
    const update = validateBody(WebSearchUpdateSchema, request.body);
    if (update.braveKey !== undefined) {
      const origin = new URL(context.chatTools.webSearch?.braveUrl ?? BRAVE_SEARCH_URL).origin;
      await context.secrets.setKey(BRAVE_SEARCH_KEY_ID, update.braveKey || null, update.braveKey ? origin : undefined);
      await context.refreshSecrets();
    }
    await context.webSearch.update((config) => ({
      ...config,
      provider: update.provider,
      searxngUrl: update.searxngUrl !== undefined ? update.searxngUrl : config.searxngUrl,
    }));
    context.logger.info('web search settings updated', { provider: update.provider });
    context.hub.publish({ type: 'settings-changed' });
    response.json(await current(context));
  });
  return router;
}
