import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SessionRootsSource } from '../../protocol/index.ts';
// The light surface: session-read workers import the Atlas, and the record store's schemas would ride along.
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

/** The roots in force and where they come from: the variable, the person's choice in Settings, or the defaults. */
export interface SessionRoots {
  roots: string[];
  source: SessionRootsSource;
}

const ChosenRootsSchema = z.object({ sessionRoots: z.array(z.string()).optional() });

/**
 * The roots chosen in Settings (`sessionRoots` in `$WEFT_HOME/settings.json`), or null when none were chosen.
 * Read from disk at every call, so the CLI and a running server see a change without a restart. An unreadable or
 * malformed file reads as no choice (the settings store keeps such a file aside on its next write).
 */
export function readChosenSessionRoots(weftHome: string): string[] | null {
  let text: string;
  try {
    text = readFileSync(path.join(weftHome, 'settings.json'), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = ChosenRootsSchema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data.sessionRoots ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * The session roots in force, one answer for the server, the why index, the CLI and the MCP server:
 * `WEFT_SESSION_ROOTS` when set (it overrides Settings), else the roots chosen in Settings, else the runners'
 * defaults. Weft's own agent-lane Codex sessions are read beside a Settings choice as beside the defaults.
 */
export function resolveSessionRoots(
  env: Record<string, string | undefined>,
  home: string,
  weftHome: string = resolveWeftHome(env, home),
): SessionRoots {
  const raw = env['WEFT_SESSION_ROOTS'];
  if (raw !== undefined && raw.trim() !== '') return { roots: sessionRootsFromEnv(env, home), source: 'environment' };
  const agentLane = agentLaneCodexSessions(weftHome);
  const chosen = readChosenSessionRoots(weftHome);
  if (chosen === null) return { roots: [...defaultSessionRoots(home), agentLane], source: 'defaults' };
  return { roots: [...new Set([...chosen, agentLane])], source: 'settings' };
}
