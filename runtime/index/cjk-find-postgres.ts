import { snippetAround, TRIGRAM, type CjkFindRow } from './cjk-find.ts';

export interface CjkPostgresRequest {
  phrase: string;
  field: 'question' | 'answer' | 'material';
  /** Condition on `c.cwd` over parameters $4… (empty for none), and their values. */
  cwdFilter: string;
  cwdValues: string[];
  limit: number;
}

type Query = <Row>(sql: string, values: unknown[]) => Promise<Row[]>;

/**
 * `findCjkSubstring` on PostgreSQL, over the same `cjk_texts` rows: a phrase of three characters or more is a
 * case-insensitive substring (a pg_trgm GIN index on `lower(text)` proposes, the LIKE decides), a shorter one a
 * `strpos` scan of those texts; newest first, the same snippet.
 */
export async function findCjkRowsOnPostgres(query: Query, request: CjkPostgresRequest): Promise<CjkFindRow[]> {
  const needle = request.phrase.replaceAll('\u0000', ' ').trim();
  const short = [...needle].length < TRIGRAM;
  const owner =
    request.field === 'material'
      ? 'JOIN materials c ON c.id = x.material_id'
      : 'JOIN turns c ON c.id = x.turn_id JOIN sessions s ON s.id = c.session_row JOIN sources src ON src.id = s.source_id';
  const columns =
    request.field === 'material'
      ? 'c.runner, c.session_id AS "sessionId", NULL::int AS turn, 0 AS "sourceDeleted"'
      : 's.runner, s.session_id AS "sessionId", c.number AS turn, (src.deleted_at IS NOT NULL)::int AS "sourceDeleted"';
  const condition = short ? 'strpos(lower(x.text), lower($2)) > 0' : 'lower(x.text) LIKE $2';
  const rows = await query<Omit<CjkFindRow, 'snippet'> & { text: string }>(
    `SELECT ${columns}, c.turn_key AS "turnKey", c.cwd, c.at, x.text FROM cjk_texts x ${owner}
     WHERE x.field = $1 AND ${condition} ${request.cwdFilter} ORDER BY x.id DESC LIMIT $3`,
    [request.field, short ? needle : `%${likeEscaped(asciiLower(needle))}%`, request.limit, ...request.cwdValues],
  );
  return rows.map(({ text, ...row }) => ({ ...row, snippet: snippetAround(text, needle) }));
}

/** PostgreSQL's `lower()` under the C collation, which the index's database uses: ASCII letters only. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
