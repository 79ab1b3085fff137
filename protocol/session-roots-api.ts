import { z } from 'zod';
import { RunnerSchema } from './atlas-session.ts';

/**
 * C18: where the Session Atlas reads, as Settings shows it. `environment`: `WEFT_SESSION_ROOTS` is set and
 * overrides Settings (the list is read-only); `settings`: the roots the person chose; `defaults`: the runners'
 * default folders (a first add or remove turns them into a chosen list).
 */
export const SessionRootsSourceSchema = z.enum(['environment', 'settings', 'defaults']);
export type SessionRootsSource = z.infer<typeof SessionRootsSourceSchema>;

/**
 * One root and what it holds, from the why index: the runners whose sessions it holds, their count (subagent runs
 * not counted) and the last time one of its session files changed. `kind` says why it is read: `chosen` (Settings),
 * `default` (a runner's folder), `agent-lane` (Weft's own Codex sessions, always read, never removable) or
 * `environment` (`WEFT_SESSION_ROOTS`).
 */
export const SessionRootSchema = z.object({
  path: z.string(),
  kind: z.enum(['chosen', 'default', 'agent-lane', 'environment']),
  exists: z.boolean(),
  runners: z.array(RunnerSchema),
  sessions: z.number().int().nonnegative(),
  lastChangeAt: z.number().nullable(),
});
export type SessionRoot = z.infer<typeof SessionRootSchema>;

/** `GET /api/session-roots`, and the answer to an add or a remove. */
export const SessionRootsResponseSchema = z.object({
  source: SessionRootsSourceSchema,
  roots: z.array(SessionRootSchema),
});
export type SessionRootsResponse = z.infer<typeof SessionRootsResponseSchema>;

/** `POST /api/session-roots` (add: an absolute path, or `~/…`) and `DELETE /api/session-roots` (remove). */
export const SessionRootRequestSchema = z.object({ path: z.string().min(1).max(4096) });
export type SessionRootRequest = z.infer<typeof SessionRootRequestSchema>;
