import { PostgresIndex } from '../runtime/index/index.ts';
import type { ServerContext } from './server-context.ts';

/** Per server, the team indexes opened so far by connection string (each a pool of its own). */
const opened = new WeakMap<ServerContext, Map<string, Promise<PostgresIndex>>>();

/**
 * The team index of `url`, opened on first use and kept for the server's life: every request after the first
 * reuses its pool (a new pool per request paid a TCP connect, the authentication and the schema check each time).
 * A failed open is forgotten, so the next request tries again.
 */
export function teamIndexFor(context: ServerContext, url: string): Promise<PostgresIndex> {
  let byUrl = opened.get(context);
  if (!byUrl) opened.set(context, (byUrl = new Map<string, Promise<PostgresIndex>>()));
  let team = byUrl.get(url);
  if (!team) {
    const opening = PostgresIndex.open(url);
    byUrl.set(url, opening);
    opening.catch(() => {
      if (byUrl.get(url) === opening) byUrl.delete(url);
    });
    team = opening;
  }
  return team;
}

/** Closes the team indexes of every connection string but `keep` (a changed string; `null`: shutdown, all). */
export async function closeTeamIndexes(context: ServerContext, keep: string | null = null): Promise<void> {
  const byUrl = opened.get(context);
  if (!byUrl) return;
  const closing = [...byUrl].filter(([url]) => url !== keep);
  for (const [url] of closing) byUrl.delete(url);
  await Promise.all(closing.map(([, team]) => team.then((index) => index.close()).catch(() => undefined)));
}
