import express, { type Router } from 'express';
import {
  TEAM_INDEX_KEY_ID,
  TeamIndexUpdateSchema,
  WeftError,
  type TeamIndexCheck,
  type TeamIndexSettings,
} from '../../protocol/index.ts';
import { safeLocation, type PostgresIndex } from '../../runtime/index/index.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { closeTeamIndexes, teamIndexFor } from '../team-index-registry.ts';
import { validateBody } from '../validate-body.ts';

async function current(context: ServerContext): Promise<TeamIndexSettings> {
  const url = await context.secrets.getKey(TEAM_INDEX_KEY_ID);
  return { configured: Boolean(url), location: url ? safeLocation(url) : null };
}

/**
 * The team index the stored connection string names, for one request (`use`); its pool is the server's, kept
 * across requests (`team-index-registry.ts`). Refused when none is stored; a server that cannot be reached is a
 * 502 naming it by `location`, never by the string.
 */
export async function withTeamIndex<T>(context: ServerContext, use: (team: PostgresIndex) => Promise<T>): Promise<T> {
  const url = await context.secrets.getKey(TEAM_INDEX_KEY_ID);
  if (!url) throw new WeftError('team-index-not-set', 'No team index is set (Settings → Team index).', 409);
  let team: PostgresIndex;
  try {
    team = await teamIndexFor(context, url);
  } catch (error) {
    throw new WeftError('team-index-unreachable', (error as Error).message, 502);
  }
  return use(team);
}

/**
 * `GET/PUT /api/team-index`, `POST /api/team-index/test` (issue 32.4): the connection string is write-only, kept
 * in the secrets file and scrubbed from every log like a provider key; responses carry `location` only.
 */
export function teamIndexRoute(context: ServerContext): Router {
  const router = express.Router();
  router.get('/team-index', async (_request, response) => {
    response.json(await current(context));
  });
  router.put('/team-index', jsonBody(16 * 1024), async (request, response) => {
    const update = validateBody(TeamIndexUpdateSchema, request.body);
    await context.secrets.setKey(TEAM_INDEX_KEY_ID, update.url);
    await context.refreshSecrets();
    // A replaced or forgotten string's pool is closed now, not at shutdown.
    await closeTeamIndexes(context, update.url);
    const settings = await current(context);
    context.logger.info('team index set', { location: settings.location });
    context.hub.publish({ type: 'settings-changed' });
    response.json(settings);
  });
  router.post('/team-index/test', async (_request, response) => {
    const { location } = await current(context);
    let check: TeamIndexCheck;
    try {
      check = await withTeamIndex(context, async (team) => ({
        ok: true,
        location,
        message: null,
        ...(await team.overview()),
      }));
    } catch (error) {
      if ((error as { code?: string }).code === 'team-index-not-set') throw error;
      // A failed test is an answer, not a server error: the reason names the server, never the string.
      const message = (error as Error).message;
      check = { ok: false, location, message, schemaVersions: [], sessions: 0, turns: 0, machines: null };
    }
    response.json(check);
  });
  return router;
}
