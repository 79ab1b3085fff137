import type { MachineLabel } from './machine-identity.ts';
import type { IndexDatabase } from './open-index-database.ts';
import type { Completeness, KnownAs } from '../../protocol/index.ts';
import { turnKnownAs } from '../../src/core/recall/index.ts';
import { FAILED_SUFFIX } from './session-rows.ts';
import type { WhyTarget } from './why-target.ts';

/** One turn that touched (or cited) the target. */
export interface WhyHit {
  runner: string;
  sessionId: string;
  turn: number;
  turnKey: string;
  path: string;
  /** The strongest thing the turn did to the path (write over edit over read). */
  op: string;
  /** Everything the turn did to the path, strongest first (a turn that wrote, edited and read it names all three). */
  ops: string[];
  at: number | null;
  cwd: string | null;
  question: string;
  /** The session file is gone (deleted by its agent); the turn is answered from Weft's archived copy. */
  sourceDeleted: boolean;
  /** #29: how the turn is known: `observed` (read as written) or `reconstructed` (the runner marked it interrupted). */
  knownAs: KnownAs;
  /** #29: how its source was cut short; null when complete. */
  completeness: Completeness | null;
  /** #32: a team index of several machines names those whose index holds the turn (absent for one machine). */
  machines?: MachineLabel[];
}

export interface WhyResult {
  hits: WhyHit[];
  /**
   * Read-only and failed turns left out (they show with `includeRead`, or when nothing else touched the
   * target).
   */
  hiddenReads: number;
  /** Turns left out because their content is put aside (issue 29.2); 0 when none. */
  putAside: number;
}

export interface WhyOptions {
  includeRead?: boolean;
  limit?: number;
  /** Whether a turn's content is put aside: such a turn is left out and counted. */
  putAside?: (turnKey: string) => boolean;
}

/** Ops that only looked at a file; a turn that did nothing more is hidden by default. */
const READ_ONLY_OPS = new Set(['read', 'search']);
/** When one turn touched a path several ways, the hit names the strongest (a failed op is weakest). */
const OP_STRENGTH = ['read', 'search', 'fetch', 'cite', 'other', 'agent', 'run', 'edit', 'write', 'delete'];
/** Characters of a turn's question a hit carries. */
export const QUESTION_CHARACTERS = 1000;

/** One touch (or citation) row as the engines select it, before `foldWhyRows`. */
export interface WhyRow {
  turnId: number;
  turnKey: string;
  number: number;
  at: number | null;
  cwd: string | null;
  question: string;
  runner: string;
  sessionId: string;
  path: string;
  op: string;
  mirrors: string | null;
  sourceDeleted: number;
  status: string | null;
}

const SELECT = `SELECT t.id AS turnId, t.turn_key AS turnKey, t.number, t.at, t.cwd, t.mirrors,
    substr(t.user_text, 1, ${QUESTION_CHARACTERS}) AS question, s.runner, s.session_id AS sessionId,
    src.deleted_at IS NOT NULL AS sourceDeleted, t.status`;
const JOIN =
  'JOIN turns t ON t.id = x.turn_id JOIN sessions s ON s.id = t.session_row JOIN sources src ON src.id = s.source_id';

/**
 * The turns that touched any of `targets` (one, or a relative path resolved against several folders), newest
 * first. A canvas copy of a session turn (a mirror node) is folded into the turn it mirrors when that turn is
 * among the hits: it is the same work, recorded twice.
 */
export function queryWhy(database: IndexDatabase, targets: readonly WhyTarget[], options: WhyOptions = {}): WhyResult {
  return foldWhyRows(
    targets.flatMap((target) => selectRows(database, target)),
    options,
  );
}

/** The one fold both engines answer `why` with: put-aside turns out, one hit per turn and path, newest first. */
export function foldWhyRows(selected: readonly WhyRow[], options: WhyOptions = {}): WhyResult {
  const leftOut = new Set(selected.filter((row) => options.putAside?.(row.turnKey)).map((row) => row.turnKey));
  const rows = leftOut.size === 0 ? selected : selected.filter((row) => !leftOut.has(row.turnKey));
  const byTurnAndPath = new Map<string, WhyRow>();
  const opsOf = new Map<string, Set<string>>();
  for (const row of rows) {
    const key = `${row.turnKey}\u0000${row.path}`;
    opsOf.set(key, (opsOf.get(key) ?? new Set()).add(row.op));
    const previous = byTurnAndPath.get(key);
    if (!previous || OP_STRENGTH.indexOf(row.op) > OP_STRENGTH.indexOf(previous.op)) byTurnAndPath.set(key, row);
  }
  const toHit = (row: WhyRow) => hitOf(row, [...opsOf.get(`${row.turnKey}\u0000${row.path}`)!].sort(strongestFirst));
  const all = [...byTurnAndPath.values()]
    .filter((row) => row.mirrors === null || !byTurnAndPath.has(`${row.mirrors}\u0000${row.path}`))
    .sort(newestFirst);
  const acting = all.filter((row) => !READ_ONLY_OPS.has(row.op) && !row.op.endsWith(FAILED_SUFFIX));
  const shown = options.includeRead || acting.length === 0 ? all : acting;
  const limit = options.limit ?? 50;
  return { hits: shown.slice(0, limit).map(toHit), hiddenReads: all.length - shown.length, putAside: leftOut.size };
}

/** True when anything at all touched the target (reads included): `weft why --check`. */
export function hasWhyHistory(database: IndexDatabase, targets: readonly WhyTarget[]): boolean {
  return targets.some((target) => selectRows(database, target, 1).length > 0);
}

function selectRows(database: IndexDatabase, target: WhyTarget, limit = -1): WhyRow[] {
  switch (target.kind) {
    case 'path':
      return database
        .prepare(
          `${SELECT}, x.path, x.op FROM touches x ${JOIN}
           WHERE x.path = @path OR (x.path > @low AND x.path < @high) LIMIT @limit`,
        )
        .all({ path: target.path, ...below(target.path), limit }) as WhyRow[];
    case 'name':
      return target.under === null
        ? (database
            .prepare(`${SELECT}, x.path, x.op FROM touches x ${JOIN} WHERE x.name = @name LIMIT @limit`)
            .all({ name: target.name, limit }) as WhyRow[])
        : (database
            .prepare(
              `${SELECT}, x.path, x.op FROM touches x ${JOIN}
               WHERE x.name = @name AND x.path > @low AND x.path < @high LIMIT @limit`,
            )
            .all({ name: target.name, ...below(target.under), limit }) as WhyRow[]);
    case 'url': {
      const bare = target.url.endsWith('/') ? target.url.slice(0, -1) : target.url;
      return database
        .prepare(`${SELECT}, x.url AS path, 'cite' AS op FROM urls x ${JOIN} WHERE x.url IN (?, ?) LIMIT ?`)
        .all(bare, `${bare}/`, limit) as WhyRow[];
    }
    case 'paper':
      return database
        .prepare(
          `${SELECT}, x.kind || ':' || x.identifier AS path, 'cite' AS op FROM papers x ${JOIN}
           WHERE x.kind = ? AND x.identifier = ? LIMIT ?`,
        )
        .all(target.paperKind, target.identifier, limit) as WhyRow[];
  }
}

/** Bounds that select every path strictly inside directory `path` ('0' sorts right after '/'). */
export function below(path: string): { low: string; high: string } {
  const base = path.endsWith('/') ? path.slice(0, -1) : path;
  return { low: `${base}/`, high: `${base}0` };
}

/** One turn's several paths by path, so the order never hangs on an engine's row order (both engines agree). */
function newestFirst(left: WhyRow, right: WhyRow): number {
  const byTime = (right.at ?? -Infinity) - (left.at ?? -Infinity);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  return right.turnId - left.turnId || (left.path < right.path ? -1 : left.path > right.path ? 1 : 0);
}

/** Ties (ops of no known strength, e.g. failed ones) by name, so the order never hangs on an engine's row order. */
function strongestFirst(left: string, right: string): number {
  return OP_STRENGTH.indexOf(right) - OP_STRENGTH.indexOf(left) || (left < right ? -1 : left > right ? 1 : 0);
}

function hitOf(row: WhyRow, ops: string[]): WhyHit {
  return {
    runner: row.runner,
    sessionId: row.sessionId,
    turn: row.number,
    turnKey: row.turnKey,
    path: row.path,
    op: row.op,
    ops,
    at: row.at,
    cwd: row.cwd,
    question: row.question,
    sourceDeleted: row.sourceDeleted === 1,
    // By the runner's mark only: measuring every touching turn's whole text would cost `why` a scan per row (recall,
    // which reads the text, also names a turn cut at the index's cap).
    ...turnKnownAs(row.status, false),
  };
}
