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
import { createHttpClient, jsonInit } from '../api/index.ts';

export interface SessionQuery {
  runner?: Runner | null;
  q?: string;
  sort?: AtlasSort;
  subagents?: boolean;
}

const call = createHttpClient().json;

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
  /** `workingDirectory`: the open canvas's, which a relative target may be relative to; `fromTeam`: the team index. */
  why(
    target: string,
    includeRead = false,
    workingDirectory: string | null = null,
    fromTeam = false,
  ): Promise<AtlasWhyResponse> {
    const parameters = new URLSearchParams({ target });
    if (includeRead) parameters.set('includeRead', 'true');
    if (workingDirectory) parameters.set('cwd', workingDirectory);
    if (fromTeam) parameters.set('from', 'team');
    return call(`/api/atlas/why?${parameters.toString()}`, AtlasWhyResponseSchema);
  },
  follows(): Promise<AtlasFollowsResponse> {
    return call('/api/atlas/follows', AtlasFollowsResponseSchema);
  },
  setFollowing(runner: Runner, sessionId: string, following: boolean): Promise<AtlasFollowsResponse> {
    return call('/api/atlas/follows', AtlasFollowsResponseSchema, jsonInit('PUT', { runner, sessionId, following }));
  },
};
