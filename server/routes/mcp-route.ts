import express, { type Router } from 'express';
import type { ServerContext } from '../server-context.ts';

/**
 * `GET /api/mcp/servers` and `GET /api/mcp/tools` (C35): the MCP servers of `$WEFT_HOME/mcp.json` (read-only: the
 * file is the source). `servers` starts nothing; `tools` starts (stdio) or reaches (HTTP) each server and lists its
 * tools as a request would declare them. Env and header values are never in either answer.
 */
export function mcpRoute(context: ServerContext): Router {
  const router = express.Router();
  router.get('/mcp/servers', async (_request, response) => {
    response.json(await context.mcp.servers());
  });
  router.get('/mcp/tools', async (_request, response) => {
    response.json(await context.mcp.tools());
  });
  return router;
}
