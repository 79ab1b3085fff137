import type { IndexDatabase } from './open-index-database.ts';

/** The trigram tokenizer indexes runs of three characters: a shorter phrase has no trigram to look up. */
export const TRIGRAM = 3;
/** Characters of context on each side of the match in a snippet. */
const SNIPPET_CONTEXT = 40;

export interface CjkFindRequest {
  phrase: string;
  field: 'question' | 'answer' | 'material';
  /** SQL condition on `c.cwd` (empty for none), with its parameters. */
  cwdFilter: string;
  parameters: Record<string, string | number>;
  limit: number;
}

export interface CjkFindRow {
  runner: string | null;
  sessionId: string | null;
  turn: number | null;
  turnKey: string;
  cwd: string | null;
  at: number | null;
  sourceDeleted: number;
  snippet: string;
}

/**
 * Substring search over the texts that hold CJK characters, newest first: an FTS5 trigram lookup for a
 * phrase of three characters or more, and for one of two (no trigram to look up) a scan of those texts
 * only, which stops at the limit. Case-insensitive like the trigram table.
 */
export function findCjkSubstring(database: IndexDatabase, request: CjkFindRequest): CjkFindRow[] {
  const needle = request.phrase.replaceAll('\u0000', ' ').trim();
  const short = [...needle].length < TRIGRAM;
  const owner =
    request.field === 'material'
      ? `JOIN materials c ON c.id = x.material_id`
      : `JOIN turns c ON c.id = x.turn_id JOIN sessions s ON s.id = c.session_row JOIN sources src ON src.id = s.source_id`;
  const columns =
    request.field === 'material'
      ? 'c.runner, c.session_id AS sessionId, NULL AS turn, 0 AS sourceDeleted'
      : 's.runner, s.session_id AS sessionId, c.number AS turn, src.deleted_at IS NOT NULL AS sourceDeleted';
  const sql = short
    ? `SELECT ${columns}, c.turn_key AS turnKey, c.cwd, c.at, x.text FROM cjk_texts x ${owner}
       WHERE x.field = @field AND instr(lower(x.text), lower(@needle)) > 0 ${request.cwdFilter}
       ORDER BY x.id DESC LIMIT @limit`
    : `SELECT ${columns}, c.turn_key AS turnKey, c.cwd, c.at, x.text
       FROM cjk_trigrams f JOIN cjk_texts x ON x.id = f.rowid ${owner}
       WHERE cjk_trigrams MATCH @match AND x.field = @field ${request.cwdFilter}
       ORDER BY f.rowid DESC LIMIT @limit`;
  const rows = database.prepare(sql).all({
    ...request.parameters,
    field: request.field,
    needle,
    match: `"${needle.replaceAll('"', '""')}"`,
    limit: request.limit,
  }) as (Omit<CjkFindRow, 'snippet'> & { text: string })[];
  return rows.map(({ text, ...row }) => ({ ...row, snippet: snippetAround(text, needle) }));
}

/** The match in brackets with some context, like the word index's `snippet()`. */
export function snippetAround(text: string, needle: string): string {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  if (at === -1) return text.slice(0, SNIPPET_CONTEXT * 2);
  const start = Math.max(0, at - SNIPPET_CONTEXT);
  const end = Math.min(text.length, at + needle.length + SNIPPET_CONTEXT);
  return (
    (start > 0 ? '…' : '') +
    text.slice(start, at) +
    '[' +
    text.slice(at, at + needle.length) +
    ']' +
    text.slice(at + needle.length, end) +
    (end < text.length ? '…' : '')
  );
}
