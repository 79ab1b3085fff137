import type { Session, ToolOp, Turn } from '../../protocol/index.ts';
import { hasCjk } from './cjk-text.ts';
import type { IndexDatabase } from './open-index-database.ts';

/** How much of one turn's text is worth keeping: beyond this a turn is truncated (tool dumps pasted as prompts). */
export const MAXIMUM_TEXT_CHARACTERS = 200_000;

/** The op a touch is stored with: the step's op, or that op marked failed when its result was an error. */
export type TouchOp = ToolOp | `${ToolOp} (failed)`;

export interface TouchRow {
  path: string;
  op: TouchOp;
}

/** A turn reduced to what the index stores: texts, touched paths, URLs, papers and the steps for recall. */
export interface IndexedTurn {
  key: string;
  number: number;
  userText: string;
  assistantText: string;
  cwd: string | null;
  at: number | null;
  model: string | null;
  /** How the turn ended when the runner marked it (`interrupted`, `interrupted-tool-use`), else null. */
  status?: string | null;
  /** Tool steps, or their JSON already serialised (by the reader thread, so the writer and the copy between threads do less). */
  steps: unknown[] | string;
  touches: TouchRow[];
  urls: string[];
  arxivIds: string[];
  dois: string[];
  /** For a canvas copy of a session turn (a mirror node): the key of the turn it mirrors. */
  mirrors?: string | null;
}

export interface IndexedSession {
  runner: string;
  sessionId: string;
  title: string;
  cwd: string | null;
  gitBranch: string | null;
  startedAt: number | null;
  endedAt: number | null;
  parentSessionId: string | null;
  parentTurnKey: string | null;
  isSubagent: boolean;
  turns: IndexedTurn[];
}

/** Writes sessions, turns and their touches with statements prepared once per database. */
export class SessionRowWriter {
  private readonly upsertSession;
  private readonly findTurn;
  private readonly lastTurn;
  private readonly deleteTurn;
  private readonly insertTurn;
  private readonly insertTouch;
  private readonly insertUrl;
  private readonly insertPaper;
  private readonly insertCjkText;

  constructor(database: IndexDatabase) {
    this.upsertSession = database.prepare(
      `INSERT INTO sessions (source_id, runner, session_id, title, cwd, git_branch, started_at, ended_at,
         parent_session_id, parent_turn_key, is_subagent)
       VALUES (@sourceId, @runner, @sessionId, @title, @cwd, @gitBranch, @startedAt, @endedAt,
         @parentSessionId, @parentTurnKey, @isSubagent)
       ON CONFLICT (source_id, session_id) DO UPDATE SET title = excluded.title, cwd = excluded.cwd,
         git_branch = excluded.git_branch, started_at = excluded.started_at, ended_at = excluded.ended_at,
         parent_session_id = excluded.parent_session_id, parent_turn_key = excluded.parent_turn_key,
         is_subagent = excluded.is_subagent
       RETURNING id`,
    );
    this.findTurn = database.prepare('SELECT id, session_row AS sessionRow FROM turns WHERE turn_key = ?');
    this.lastTurn = database.prepare('SELECT max(number) AS number FROM turns WHERE session_row = ?');
    this.deleteTurn = database.prepare('DELETE FROM turns WHERE id = ?');
    this.insertTurn = database.prepare(
      `INSERT INTO turns (turn_key, session_row, number, user_text, assistant_text, cwd, at, model, steps, mirrors, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertTouch = database.prepare('INSERT INTO touches (turn_id, path, name, op) VALUES (?, ?, ?, ?)');
    this.insertUrl = database.prepare('INSERT INTO urls (turn_id, url) VALUES (?, ?)');
    this.insertPaper = database.prepare('INSERT INTO papers (turn_id, kind, identifier) VALUES (?, ?, ?)');
    this.insertCjkText = database.prepare('INSERT INTO cjk_texts (turn_id, field, text) VALUES (?, ?, ?)');
  }

  /**
   * Writes one session. With `resumed`, the source grew and was read from where it stopped: turns already
   * stored are kept except the session's last one (which the new lines may have extended); new turns are added.
   * Returns the number of turns written.
   */
  writeSession(sourceId: number, session: IndexedSession, resumed: boolean): number {
    const { id: sessionRow } = this.upsertSession.get({
      sourceId,
      runner: session.runner,
      sessionId: session.sessionId,
      title: session.title,
      cwd: session.cwd,
      gitBranch: session.gitBranch,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      parentSessionId: session.parentSessionId,
      parentTurnKey: session.parentTurnKey,
      isSubagent: session.isSubagent ? 1 : 0,
    }) as { id: number };
    const lastStored = resumed ? ((this.lastTurn.get(sessionRow) as { number: number | null }).number ?? 0) : 0;
    let written = 0;
    for (const turn of session.turns) {
      const existing = this.findTurn.get(turn.key) as { id: number; sessionRow: number } | undefined;
      if (existing) {
        if (resumed && existing.sessionRow === sessionRow && turn.number < lastStored) continue;
        this.deleteTurn.run(existing.id);
      }
      this.writeTurn(sessionRow, turn);
      written += 1;
    }
    return written;
  }

  private writeTurn(sessionRow: number, turn: IndexedTurn): void {
    const question = clip(turn.userText);
    const answer = clip(turn.assistantText);
    const turnId = Number(
      this.insertTurn.run(
        turn.key,
        sessionRow,
        turn.number,
        question,
        answer,
        turn.cwd,
        turn.at,
        turn.model,
        typeof turn.steps === 'string' ? turn.steps : JSON.stringify(turn.steps),
        turn.mirrors ?? null,
        turn.status ?? null,
      ).lastInsertRowid,
    );
    if (hasCjk(question)) this.insertCjkText.run(turnId, 'question', question);
    if (hasCjk(answer)) this.insertCjkText.run(turnId, 'answer', answer);
    const seen = new Set<string>();
    for (const touch of turn.touches) {
      const unique = `${touch.op}\u0000${touch.path}`;
      if (seen.has(unique)) continue;
      seen.add(unique);
      this.insertTouch.run(turnId, touch.path, lastSegment(touch.path), touch.op);
    }
    for (const url of new Set(turn.urls)) this.insertUrl.run(turnId, url);
    for (const id of new Set(turn.arxivIds)) this.insertPaper.run(turnId, 'arxiv', id.toLowerCase());
    for (const doi of new Set(turn.dois)) this.insertPaper.run(turnId, 'doi', doi.toLowerCase());
  }
}

/** Maps an atlas session to the rows the index keeps. */
export function indexedSessionFromAtlas(session: Session): IndexedSession {
  return {
    runner: session.runner,
    sessionId: session.sessionId,
    title: session.title,
    cwd: session.cwd,
    gitBranch: session.gitBranch,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    parentSessionId: session.parentSessionId,
    parentTurnKey: session.parentTurnKey,
    isSubagent: session.isSubagent,
    turns: session.turns.map((turn) => indexedTurnFromAtlas(turn, session.cwd)),
  };
}

/** A step whose result was an error touched nothing: its op carries the failure (`write (failed)`). */
export function touchOp(op: ToolOp, isError: boolean): TouchOp {
  return isError ? `${op} (failed)` : op;
}

export const FAILED_SUFFIX = ' (failed)';

function indexedTurnFromAtlas(
  turn: Turn & { cwd?: string | null; status?: string | null },
  cwd: string | null,
): IndexedTurn {
  const touches: TouchRow[] = [];
  for (const step of turn.steps)
    for (const path of step.files) touches.push({ path, op: touchOp(step.op, step.isError) });
  return {
    key: turn.key,
    number: turn.number,
    userText: turn.userText,
    assistantText: turn.assistantText,
    // The turn's own working directory (its opening record's), else the session's.
    cwd: turn.cwd ?? cwd,
    status: turn.status ?? null,
    at: turn.startedAt ?? turn.endedAt,
    model: turn.model,
    steps: JSON.stringify(turn.steps),
    touches,
    urls: turn.urls,
    arxivIds: turn.arxivIds,
    dois: turn.dois,
  };
}

function clip(text: string): string {
  return text.length > MAXIMUM_TEXT_CHARACTERS ? text.slice(0, MAXIMUM_TEXT_CHARACTERS) : text;
}

export function lastSegment(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const slash = trimmed.lastIndexOf('/');
  return slash === -1 ? trimmed : trimmed.slice(slash + 1);
}
