import path from 'node:path';
import { resolveWeftHome } from '../fs/home/index.ts';

/** The runners' default transcript folders (C18). */
export function defaultSessionRoots(home: string): string[] {
  return [
    path.join(home, '.claude', 'projects'),
    path.join(home, '.codex', 'sessions'),
    path.join(home, '.pi', 'agent', 'sessions'),
  ];
}

/**
 * Where Codex writes the sessions of Weft's agent-lane turns: the CODEX_HOME Weft owns (`runtime/agents`), so the
 * turns appear in the Atlas and the why index beside the person's own Codex sessions.
 */
export function agentLaneCodexSessions(weftHome: string): string {
  return path.join(weftHome, 'agents', 'codex-home', 'sessions');
}

/**
 * `WEFT_SESSION_ROOTS` (a `path.delimiter`-separated list) replaces the defaults when set and non-empty; the
 * defaults are the runners' folders and the agent lane's Codex sessions.
 * Relative entries are resolved against `home` so the result never depends on the process cwd.
 */
export function sessionRootsFromEnv(env: Record<string, string | undefined>, home: string): string[] {
  const raw = env['WEFT_SESSION_ROOTS'];
  if (raw === undefined || raw.trim() === '')
    return [...defaultSessionRoots(home), agentLaneCodexSessions(resolveWeftHome(env, home))];
  const roots = raw
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) =>
      entry === '~' ? home : entry.startsWith('~/') ? path.join(home, entry.slice(2)) : path.resolve(home, entry),
    );
  return [...new Set(roots)];
}
