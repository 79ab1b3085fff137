import { isAbsolute } from 'node:path';
import express, { type Router } from 'express';
import { RunnerSchema, WeftError } from '../../protocol/index.ts';
import {
  AtlasFollowRequestSchema,
  AtlasSortSchema,
  type AtlasFollowsResponse,
  type AtlasSessionResponse,
} from '../../protocol/index.ts';
import { atlasServiceFor } from '../atlas/atlas-registry.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';
import { withTeamIndex } from './team-index-route.ts';

function queryString(value: unknown, name: string, max = 2000): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new WeftError('invalid-query', `The ${name} parameter must be given once, as text.`, 400);
  if (value.length > max)
    throw new WeftError('invalid-query', `The ${name} parameter is longer than ${max} characters.`, 400);
  return value;
}

function runnerParameter(value: unknown) {
  const text = queryString(value, 'runner', 40);
  if (text === undefined || text === '' || text === 'all') return undefined;
  const parsed = RunnerSchema.safeParse(text);
  if (!parsed.success)
    throw new WeftError('invalid-query', `Unknown runner "${text}" (claude-code, codex or pi).`, 400);
  return parsed.data;
}

/**
 * Session Atlas (C18–C22 in the app): session cards from the why index, sessions read through the fence,
 * why-queries, and the follow list. Read-only over the session roots.
 */
export function atlasRoute(context: ServerContext): Router {
  const router = express.Router();
  const atlas = () => atlasServiceFor(context);
  // Resume persisted follows as soon as the server starts, not on the first request.
  atlas();

  router.get('/atlas/sessions', async (request, response) => {
    const sortText = queryString(request.query.sort, 'sort', 20);
    const sort = sortText ? AtlasSortSchema.safeParse(sortText) : null;
    if (sort && !sort.success)
      throw new WeftError('invalid-query', `Unknown sort "${sortText}" (recent, oldest, size, turns, title).`, 400);
    const subagents = queryString(request.query.subagents, 'subagents', 10);
    const body = await atlas().listSessions({
      runner: runnerParameter(request.query.runner),
      q: queryString(request.query.q, 'q', 500),
      sort: sort?.data,
      subagents: subagents === 'true' || subagents === '1',
    });
    response.json(body);
  });

  router.get('/atlas/sessions/:sessionId', async (request, response) => {
    const sessionId = String(request.params.sessionId);
    const runner = runnerParameter(request.query.runner);
    const { sessions, sourceDeleted } = await atlas().readSessionView(sessionId, runner);
    const main = sessions[0]!;
    const following = (await atlas().follows()).some(
      (follow) => follow.runner === main.runner && follow.sessionId === main.sessionId,
    );
    const body: AtlasSessionResponse = { sessions, following, ...(sourceDeleted ? { sourceDeleted } : {}) };
    response.json(body);
  });

  router.get('/atlas/why', async (request, response) => {
    const target = queryString(request.query.target, 'target', 4096)?.trim() ?? '';
    if (target === '') throw new WeftError('bad-target', 'Give a path, file name, URL or arxiv:<id>.', 400);
    const includeRead = queryString(request.query.includeRead, 'includeRead', 10) === 'true';
    const cwd = queryString(request.query.cwd, 'cwd', 4096)?.trim() || null;
    if (cwd !== null && !isAbsolute(cwd))
      throw new WeftError('invalid-query', 'The cwd parameter must be an absolute folder path.', 400);
    // `from=team`: the team index answers (Settings → Team index), labelled `answeredBy: 'team-index'`.
    const from = queryString(request.query.from, 'from', 10) ?? 'local';
    if (from !== 'local' && from !== 'team')
      throw new WeftError('invalid-query', 'The from parameter is local or team.', 400);
    response.json(
      from === 'team'
        ? await withTeamIndex(context, (team) => atlas().why(target, includeRead, cwd, team))
        : await atlas().why(target, includeRead, cwd),
    );
  });

  router.get('/atlas/follows', async (_request, response) => {
    const body: AtlasFollowsResponse = { follows: await atlas().follows() };
    response.json(body);
  });

  router.put('/atlas/follows', jsonBody(16 * 1024), async (request, response) => {
    const change = validateBody(AtlasFollowRequestSchema, request.body);
    const follows = await atlas().setFollowing(change.runner, change.sessionId, change.following);
    const body: AtlasFollowsResponse = { follows };
    response.json(body);
  });
  return router;
}
