import type { MachineLabel } from './machine-identity.ts';
import { findCjkSubstring } from './cjk-find.ts';
import { hasCjk } from './cjk-text.ts';
import { IndexError } from './index-error.ts';
import type { IndexDatabase } from './open-index-database.ts';

export type FindField = 'question' | 'answer' | 'material';

export interface FindHit {
  runner: string | null;
  sessionId: string | null;
  turn: number | null;
  turnKey: string;
  field: FindField;
  snippet: string;
  cwd: string | null;
  at: number | null;
  /** The session file is gone; the text comes from Weft's archived copy of it. */
  sourceDeleted: boolean;
  /** #32: a team index of several machines names those whose index holds the turn (absent for one machine). */
  machines?: MachineLabel[];
}

export interface FindOptions {
  /** Search only questions, answers or materials (memory files, canvas materials); all three by default. */
  in?: FindField;
  /** Only turns whose working directory is this directory or inside it. */
  cwd?: string;
  limit?: number;
}

/** Turns an arbitrary string into one FTS5 phrase: exact words in order, no query syntax. */
export function ftsPhrase(phrase: string): string {
  if (!/[\p{L}\p{N}]/u.test(phrase)) throw new IndexError('bad-query', 'the phrase has no words to search for');
  // FTS5 reads its query as a C string: a NUL would cut the phrase short ("unterminated string").
  return `"${phrase.replaceAll('\u0000', ' ').replaceAll('"', '""')}"`;
}

type Row = Omit<FindHit, 'field' | 'sourceDeleted'> & { sourceDeleted: number };

/** Tokens in a snippet (FTS5's `snippet()` size; the PostgreSQL engine cuts the same). */
export const SNIPPET_WORDS = 16;

/**
 * Exact-phrase search over questions, answers and materials, most recently indexed first: FTS5 walks its
 * doclist backwards and stops at the limit, so a phrase in 40,000 turns costs what a rare one does.
 */
export function findPhrase(database: IndexDatabase, phrase: string, options: FindOptions = {}): FindHit[] {
  const match = ftsPhrase(phrase);
  const limit = options.limit ?? 20;
  // Without its trailing slashes ('' for the root), so `${base}/` starts everything below it ('0' sorts after '/').
  const base = options.cwd ? options.cwd.replace(/\/+$/, '') : null;
  const cwdFilter = base !== null ? 'AND (c.cwd = @cwd OR (c.cwd > @low AND c.cwd < @high))' : '';
  const parameters = { match, limit, cwd: base || '/', low: `${base}/`, high: `${base}0` };
  const fields: FindField[] = options.in ? [options.in] : ['question', 'answer', 'material'];
  const hits: FindHit[] = [];
  // Inside a run of CJK characters the word index sees one token: such a phrase is looked for as a substring.
  const cjk = hasCjk(phrase);
  for (const field of fields) {
    const rows = cjk
      ? findCjkSubstring(database, { phrase, field, cwdFilter, parameters, limit })
      : field === 'material'
        ? (database
            .prepare(
              `SELECT c.runner, c.session_id AS sessionId, NULL AS turn, c.turn_key AS turnKey, c.cwd, c.at,
                 0 AS sourceDeleted, snippet(materials_text, 1, '[', ']', '…', ${SNIPPET_WORDS}) AS snippet
               FROM materials_text m JOIN materials c ON c.id = m.rowid
               WHERE materials_text MATCH @match ${cwdFilter} ORDER BY m.rowid DESC LIMIT @limit`,
            )
            .all(parameters) as Row[])
        : (database
            .prepare(
              `SELECT s.runner, s.session_id AS sessionId, c.number AS turn, c.turn_key AS turnKey, c.cwd, c.at,
                 src.deleted_at IS NOT NULL AS sourceDeleted,
                 snippet(${table(field)}, 0, '[', ']', '…', ${SNIPPET_WORDS}) AS snippet
               FROM ${table(field)} f JOIN turns c ON c.id = f.rowid JOIN sessions s ON s.id = c.session_row
                 JOIN sources src ON src.id = s.source_id
               WHERE ${table(field)} MATCH @match ${cwdFilter} ORDER BY f.rowid DESC LIMIT @limit`,
            )
            .all(parameters) as Row[]);
    for (const row of rows) hits.push({ ...row, field, sourceDeleted: row.sourceDeleted === 1 });
  }
  return newestHits(hits, limit);
}

/** Newest first, like `why` (each field's rows already stop at `limit`, newest rows first); snippets on one line. */
export function newestHits(hits: FindHit[], limit: number): FindHit[] {
  hits.sort((left, right) => (right.at ?? -Infinity) - (left.at ?? -Infinity) || 0);
  return hits.slice(0, limit).map((hit) => ({ ...hit, snippet: flatten(hit.snippet) }));
}

function table(field: 'question' | 'answer'): string {
  return field === 'question' ? 'questions' : 'answers';
}

function flatten(snippet: string): string {
  return snippet.replace(/\s+/g, ' ').trim();
}
