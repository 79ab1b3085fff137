import type { z } from 'zod';
import {
  AtlasFollowsResponseSchema,
  AtlasSessionResponseSchema,
  AtlasSessionsResponseSchema,
  AtlasWhyResponseSchema,
  type AtlasFollowsResponse,
  type AtlasSessionResponse,
  type AtlasSessionsResponse,
  type AtlasSort,
  type AtlasWhyResponse,
} from '../../../protocol/index.ts';
import type { Runner } from '../../../protocol/index.ts';
import { ApiClientError, readJson } from '../api/index.ts';

export interface SessionQuery {
  runner?: Runner | null;
  q?: string;
  sort?: AtlasSort;
  subagents?: boolean;
}

async function call<T>(path: string, schema: z.ZodType<T>, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init });
  } catch (error) {
    throw new ApiClientError('network', `Could not reach the local server (${(error as Error).message}).`);
  }
  return readJson(response, schema);
}

/** Typed client of `/api/atlas/*` (same origin, cookie auth). */
export const atlasApi = {
  sessions(query: SessionQuery = {}): Promise<AtlasSessionsResponse> {
    const parameters = new URLSearchParams();
    if (query.runner) parameters.set('runner', query.runner);
    if (query.q?.trim()) parameters.set('q', query.q.trim());
    if (query.sort) parameters.set('sort', query.sort);
    if (query.subagents) parameters.set('subagents', 'true');
    const search = parameters.toString();
    return call(`/api/atlas/sessions${search ? `?${search}` : ''}`, AtlasSessionsResponseSchema);
  },
  session(runner: Runner, sessionId: string): Promise<AtlasSessionResponse> {
    return call(
      `/api/atlas/sessions/${encodeURIComponent(sessionId)}?runner=${encodeURIComponent(runner)}`,
      AtlasSessionResponseSchema,
    );
  },
  /** `workingDirectory`: the open canvas's, which a relative target may be relative to. */
  why(target: string, includeRead = false, workingDirectory: string | null = null): Promise<AtlasWhyResponse> {
    const parameters = new URLSearchParams({ target });
    if (includeRead) parameters.set('includeRead', 'true');
    if (workingDirectory) parameters.set('cwd', workingDirectory);
    return call(`/api/atlas/why?${parameters.toString()}`, AtlasWhyResponseSchema);
  },
  follows(): Promise<AtlasFollowsResponse> {
    return call('/api/atlas/follows', AtlasFollowsResponseSchema);
  },
  setFollowing(runner: Runner, sessionId: string, following: boolean): Promise<AtlasFollowsResponse> {
    return call('/api/atlas/follows', AtlasFollowsResponseSchema, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runner, sessionId, following }),
    });
  },
};
