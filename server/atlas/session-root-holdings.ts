import { resolve, sep } from 'node:path';
import type { Runner } from '../../protocol/index.ts';
import type { IndexDatabase } from '../../runtime/index/index.ts';

export interface SessionRootHoldings {
  runners: Runner[];
  /** Sessions whose file lies under the root (subagent runs not counted: they open under their session's card). */
  sessions: number;
  /** The newest modification time of a session file under the root, or null when it holds none. */
  lastChangeAt: number | null;
}

/** What one root holds, from the why index's tables (read after a refresh; no session file is opened). */
export function sessionRootHoldings(database: IndexDatabase, root: string): SessionRootHoldings {
  const folder = resolve(root);
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  const under = `(f.path = ? OR substr(f.path, 1, ?) = ?)`;
  const counts = database
    .prepare(
      `SELECT s.runner AS runner, COUNT(*) AS sessions FROM sessions s JOIN sources f ON f.id = s.source_id
       WHERE f.kind = 'session' AND s.is_subagent = 0 AND ${under} GROUP BY s.runner ORDER BY s.runner`,
    )
    .all(folder, prefix.length, prefix) as { runner: Runner; sessions: number }[];
  const last = database
    .prepare(`SELECT MAX(f.mtime_ms) AS last FROM sources f WHERE f.kind = 'session' AND ${under}`)
    .get(folder, prefix.length, prefix) as { last: number | null };
  return {
    runners: counts.map((row) => row.runner),
    sessions: counts.reduce((total, row) => total + row.sessions, 0),
    lastChangeAt: last.last === null ? null : Math.round(last.last),
  };
}
