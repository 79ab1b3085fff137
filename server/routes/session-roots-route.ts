import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { SessionRootRequestSchema, type SessionRoot, type SessionRootsResponse } from '../../protocol/index.ts';
import {
  agentLaneCodexSessions,
  checkSessionRoot,
  defaultSessionRoots,
  resolveSessionRoots,
} from '../../runtime/atlas/index.ts';
import { WeftError } from '../../protocol/index.ts';
import type { StoredSettings } from '../../runtime/fs/index.ts';
import { atlasServiceFor } from '../atlas/atlas-registry.ts';
import { sessionRootHoldings } from '../atlas/session-root-holdings.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/**
 * The app's own folder (its code and built UI): no session root may lie in it. Two levels up from here, and from the
 * desktop bundle (`dist/desktop/main.mjs`) alike.
 */
const APP_FOLDER = fileURLToPath(new URL('../../', import.meta.url));

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The roots in force, each with what it holds (the Atlas refreshes first, so a change just made is counted). */
async function describeRoots(context: ServerContext): Promise<SessionRootsResponse> {
  const atlas = atlasServiceFor(context);
  const database = await atlas.turnDatabase();
  const source = atlas.rootsSource;
  const agentLane = resolve(agentLaneCodexSessions(context.home));
  const kindOf = (root: string): SessionRoot['kind'] =>
    source === 'environment'
      ? 'environment'
      : resolve(root) === agentLane
        ? 'agent-lane'
        : source === 'settings'
          ? 'chosen'
          : 'default';
  return {
    source,
    roots: atlas.roots.map((root) => ({
      path: root,
      kind: kindOf(root),
      exists: isFolder(root),
      ...sessionRootHoldings(database, root),
    })),
  };
}

/**
 * `GET/POST/DELETE /api/session-roots` (C18): the Atlas's roots as Settings shows them, added and removed by the
 * person. A root is checked by its real path (`checkSessionRoot`) and kept in `settings.json` (atomic, one writer
 * at a time); it is only ever read. While `WEFT_SESSION_ROOTS` is set it overrides Settings: changes are refused
 * (`session-roots-overridden`). The Atlas reads the new roots at its next refresh, without a restart.
 */
export function sessionRootsRoute(context: ServerContext): Router {
  const router = express.Router();
  const home = () => homedir();
  const refuseOverride = () => {
    if (resolveSessionRoots(process.env, home(), context.home).source === 'environment')
      throw new WeftError(
        'session-roots-overridden',
        'WEFT_SESSION_ROOTS is set: it decides the session roots, so Settings cannot change them. Unset it and restart Weft to choose them here.',
        409,
      );
  };
  // The list a change starts from: the person's, or the runners' defaults before the first change.
  const chosen = (settings: StoredSettings) => settings.sessionRoots ?? defaultSessionRoots(home());
  const changed = async () => {
    context.hub.publish({ type: 'settings-changed' });
    return describeRoots(context);
  };

  router.get('/session-roots', async (_request, response) => {
    response.json(await describeRoots(context));
  });

  router.post('/session-roots', jsonBody(16 * 1024), async (request, response) => {
    const { path } = validateBody(SessionRootRequestSchema, request.body);
    refuseOverride();
    const guard = { home: home(), weftHome: context.home, appFolders: [APP_FOLDER] };
    const real = await checkSessionRoot(path, { ...guard, roots: chosen(await context.settings.read()) });
    await context.settings.update((current) => {
      const roots = chosen(current);
      // Checked again under the settings lock: two adds of one folder keep one.
      if (roots.some((root) => resolve(root) === real))
        throw new WeftError('session-root-duplicate', `${path} is already a session root.`, 409);
      return { ...current, sessionRoots: [...roots, real] };
    });
    context.logger.info('session root added', { root: real });
    response.json(await changed());
  });

  router.delete('/session-roots', jsonBody(16 * 1024), async (request, response) => {
    const { path } = validateBody(SessionRootRequestSchema, request.body);
    refuseOverride();
    if (resolve(path) === resolve(agentLaneCodexSessions(context.home)))
      throw new WeftError(
        'session-root-weft-own',
        "Weft's agent-lane Codex sessions are always read; they cannot be removed.",
        400,
      );
    await context.settings.update((current) => {
      const roots = chosen(current);
      if (!roots.some((root) => resolve(root) === resolve(path)))
        throw new WeftError('session-root-not-listed', `${path} is not one of the session roots.`, 404);
      return { ...current, sessionRoots: roots.filter((root) => resolve(root) !== resolve(path)) };
    });
    context.logger.info('session root removed', { root: resolve(path) });
    response.json(await changed());
  });
  return router;
}
