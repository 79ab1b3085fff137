import type { Completeness, KnownAs } from '../../protocol/index.ts';
import { turnKnownAs } from '../../src/core/recall/index.ts';
import { IndexError } from './index-error.ts';
import { MAXIMUM_TEXT_CHARACTERS } from './session-rows.ts';
import type { IndexDatabase } from './open-index-database.ts';

/** A turn verbatim, as stored: the question, the answer and the tool steps. */
export interface RecalledTurn {
  runner: string;
  sessionId: string;
  sessionTitle: string;
  turn: number;
  turnKey: string;
  cwd: string | null;
  at: number | null;
  model: string | null;
  /** How the turn ended when the runner marked it (`interrupted`, `interrupted-tool-use`), else null. */
  status: string | null;
  question: string;
  answer: string;
  steps: unknown[];
  sourcePath: string;
  /** The session file is gone; the turn comes from Weft's archived copy of it. */
  sourceDeleted: boolean;
  /** #29: how the turn is known: `observed`, or `reconstructed` (interrupted, or its text cut at the index's cap). */
  knownAs: KnownAs;
  completeness: Completeness | null;
}

export type RecallRequest = { turnKey: string } | { sessionId: string; turn: number };

const SELECT = `SELECT s.runner, s.session_id AS sessionId, s.title AS sessionTitle, t.number AS turn,
    t.turn_key AS turnKey, t.cwd, t.at, t.model, t.status, t.user_text AS question, t.assistant_text AS answer,
    t.steps, src.path AS sourcePath, src.deleted_at IS NOT NULL AS sourceDeleted
  FROM turns t JOIN sessions s ON s.id = t.session_row JOIN sources src ON src.id = s.source_id`;

/** One turn by its key, or by session id (a unique prefix is enough) and turn number. */
export function recallTurn(database: IndexDatabase, request: RecallRequest): RecalledTurn {
  let row:
    | (Omit<RecalledTurn, 'steps' | 'sourceDeleted' | 'knownAs' | 'completeness'> & {
        steps: string;
        sourceDeleted: number;
      })
    | undefined;
  if ('turnKey' in request) {
    row = database.prepare(`${SELECT} WHERE t.turn_key = ?`).get(request.turnKey) as typeof row;
    if (!row) throw new IndexError('turn-not-found', `no turn ${request.turnKey} in the index`);
  } else {
    const exact = database
      .prepare(`${SELECT} WHERE s.session_id = ? AND t.number = ? LIMIT 2`)
      .all(request.sessionId, request.turn) as (typeof row)[];
    const rows =
      exact.length > 0
        ? exact
        : (database
            .prepare(`${SELECT} WHERE s.session_id >= ? AND s.session_id < ? AND t.number = ? LIMIT 2`)
            .all(request.sessionId, `${request.sessionId}\uffff`, request.turn) as (typeof row)[]);
    if (rows.length === 0) {
      throw new IndexError('turn-not-found', `no turn ${request.turn} in session ${request.sessionId}`);
    }
    if (rows.length > 1 && exact.length === 0) {
      throw new IndexError('turn-not-found', `session id ${request.sessionId} is ambiguous; give more of it`);
    }
    row = rows[0];
  }
  const found = row!;
  // The stored text is whole up to the cap: a text at the cap was cut there.
  const clipped = found.question.length >= MAXIMUM_TEXT_CHARACTERS || found.answer.length >= MAXIMUM_TEXT_CHARACTERS;
  return {
    ...found,
    steps: JSON.parse(found.steps) as unknown[],
    sourceDeleted: found.sourceDeleted === 1,
    ...turnKnownAs(found.status, clipped),
  };
}
