import path from 'node:path';

/** The runners' default transcript folders (C18). */
export function defaultSessionRoots(home: string): string[] {
  return [
    path.join(home, '.claude', 'projects'),
    path.join(home, '.codex', 'sessions'),
    path.join(home, '.pi', 'agent', 'sessions'),
  ];
}

/**
 * `WEFT_SESSION_ROOTS` (a `path.delimiter`-separated list) replaces the defaults when set and non-empty.
 * Relative entries are resolved against `home` so the result never depends on the process cwd.
 */
export function sessionRootsFromEnv(env: Record<string, string | undefined>, home: string): string[] {
  const raw = env['WEFT_SESSION_ROOTS'];
  if (raw === undefined || raw.trim() === '') return defaultSessionRoots(home);
  const roots = raw
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) =>
      entry === '~' ? home : entry.startsWith('~/') ? path.join(home, entry.slice(2)) : path.resolve(home, entry),
    );
  return [...new Set(roots)];
}
