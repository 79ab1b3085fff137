import type { Runner, AtlasSessionSummary, AtlasSessionsResponse, AtlasSort } from '../../protocol/index.ts';
import type { WhyIndex } from '../../runtime/index/index.ts';

export interface ListRequest {
  runner?: Runner | undefined;
  /** Words to find (title, working directory, or question/answer text through the why index). */
  q?: string | undefined;
  sort?: AtlasSort | undefined;
  /** Show subagent runs as cards of their own. */
  subagents?: boolean | undefined;
  limit?: number | undefined;
}

interface Row {
  rowId: number;
  runner: Runner;
  sessionId: string;
  title: string;
  cwd: string | null;
  gitBranch: string | null;
  startedAt: number | null;
  endedAt: number | null;
  isSubagent: number;
  parentSessionId: string | null;
  sourcePath: string;
  size: number;
  sourceDeleted: number;
}

const DEFAULT_LIMIT = 500;
const SEARCH_HITS = 2000;

/** Session cards straight from the index's tables: no session file is opened. */
export function listIndexedSessions(
  index: WhyIndex,
  request: ListRequest,
  isFollowing: (runner: string, sessionId: string) => boolean,
): Omit<AtlasSessionsResponse, 'roots' | 'refresh'> {
  const database = index.database;
  const rows = database
    .prepare(
      `SELECT s.id AS rowId, s.runner, s.session_id AS sessionId, s.title, s.cwd, s.git_branch AS gitBranch,
         s.started_at AS startedAt, s.ended_at AS endedAt, s.is_subagent AS isSubagent,
         s.parent_session_id AS parentSessionId, src.path AS sourcePath, src.size,
         src.deleted_at IS NOT NULL AS sourceDeleted
       FROM sessions s JOIN sources src ON src.id = s.source_id WHERE src.kind = 'session'`,
    )
    .all() as Row[];
  const turnCounts = new Map<number, number>();
  for (const row of database
    .prepare('SELECT session_row AS rowId, count(*) AS turns FROM turns GROUP BY session_row')
    .all() as { rowId: number; turns: number }[]) {
    turnCounts.set(row.rowId, row.turns);
  }
  const parents = new Set(
    (
      database
        .prepare('SELECT DISTINCT parent_session_id AS id FROM sessions WHERE parent_session_id IS NOT NULL')
        .all() as { id: string }[]
    ).map((row) => row.id),
  );

  // Counts for the side bar cover every top-level session, whatever the filters.
  const visible = rows.filter((row) => request.subagents || row.isSubagent === 0);
  const runnerCounts = new Map<Runner, number>();
  for (const row of visible) runnerCounts.set(row.runner, (runnerCounts.get(row.runner) ?? 0) + 1);

  let matches = request.runner ? visible.filter((row) => row.runner === request.runner) : visible;
  const projectCounts = new Map<string | null, number>();
  for (const row of matches) projectCounts.set(row.cwd, (projectCounts.get(row.cwd) ?? 0) + 1);

  const query = request.q?.trim() ?? '';
  if (query !== '') {
    const needle = query.toLowerCase();
    const fromText = new Set<string>();
    try {
      for (const hit of index.find(query, { limit: SEARCH_HITS })) if (hit.sessionId) fromText.add(hit.sessionId);
    } catch {
      // A query with no words (e.g. punctuation only) matches by title and folder only.
    }
    const parentOf = new Map(rows.map((row) => [row.sessionId, row.parentSessionId] as const));
    // A hit inside a subagent run also surfaces the session that delegated it.
    for (const id of [...fromText]) {
      let parent = parentOf.get(id) ?? null;
      for (let depth = 0; parent && depth < 8; depth += 1) {
        fromText.add(parent);
        parent = parentOf.get(parent) ?? null;
      }
    }
    matches = matches.filter(
      (row) =>
        fromText.has(row.sessionId) ||
        row.title.toLowerCase().includes(needle) ||
        (row.cwd ?? '').toLowerCase().includes(needle),
    );
  }

  const sorted = [...matches].sort(comparator(request.sort ?? 'recent', turnCounts));
  const limit = request.limit ?? DEFAULT_LIMIT;
  const sessions: AtlasSessionSummary[] = sorted.slice(0, limit).map((row) => ({
    runner: row.runner,
    sessionId: row.sessionId,
    title: row.title,
    cwd: row.cwd,
    gitBranch: row.gitBranch,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    size: row.size,
    turnCount: turnCounts.get(row.rowId) ?? 0,
    isSubagent: row.isSubagent === 1,
    parentSessionId: row.parentSessionId,
    hasSubagents: parents.has(row.sessionId),
    sourcePath: row.sourcePath,
    following: isFollowing(row.runner, row.sessionId),
    ...(row.sourceDeleted === 1 ? { sourceDeleted: true } : {}),
  }));
  return {
    runners: [...runnerCounts]
      .sort((left, right) => left[0].localeCompare(right[0]))
      .map(([runner, count]) => ({ runner, sessions: count })),
    projects: [...projectCounts]
      .sort((left, right) => right[1] - left[1] || (left[0] ?? '').localeCompare(right[0] ?? ''))
      .map(([cwd, count]) => ({ cwd, sessions: count })),
    sessions,
    total: matches.length,
  };
}

function comparator(sort: AtlasSort, turnCounts: Map<number, number>): (left: Row, right: Row) => number {
  const tie = (left: Row, right: Row) =>
    left.sessionId < right.sessionId ? -1 : left.sessionId > right.sessionId ? 1 : 0;
  const time = (row: Row) => row.startedAt ?? 0;
  switch (sort) {
    case 'recent':
      return (left, right) => time(right) - time(left) || tie(left, right);
    case 'oldest':
      return (left, right) => time(left) - time(right) || tie(left, right);
    case 'size':
      return (left, right) => right.size - left.size || tie(left, right);
    case 'turns':
      return (left, right) =>
        (turnCounts.get(right.rowId) ?? 0) - (turnCounts.get(left.rowId) ?? 0) || tie(left, right);
    case 'title':
      return (left, right) => left.title.localeCompare(right.title) || tie(left, right);
  }
}

/** The index rows of a session and of every subagent run below it (the files to read). */
export function sessionRowsFor(
  index: WhyIndex,
  sessionId: string,
  runner?: string,
): { sessionId: string; path: string }[] {
  const database = index.database;
  const own = database
    .prepare(
      `SELECT s.session_id AS sessionId, src.path FROM sessions s JOIN sources src ON src.id = s.source_id
      WHERE s.session_id = @sessionId AND (@runner IS NULL OR s.runner = @runner)`,
    )
    .all({ sessionId, runner: runner ?? null }) as { sessionId: string; path: string }[];
  if (own.length === 0) return [];
  const children =
    database.prepare(`SELECT s.session_id AS sessionId, src.path FROM sessions s JOIN sources src ON src.id = s.source_id
      WHERE s.parent_session_id = ?`);
  const found = [...own];
  const queue = [sessionId];
  const seen = new Set(queue);
  while (queue.length > 0 && seen.size < 500) {
    const parent = queue.shift()!;
    for (const child of children.all(parent) as { sessionId: string; path: string }[]) {
      if (seen.has(child.sessionId)) continue;
      seen.add(child.sessionId);
      found.push(child);
      queue.push(child.sessionId);
    }
  }
  return found;
}
