import { findCjkRowsOnPostgres } from './cjk-find-postgres.ts';
import { hasCjk } from './cjk-text.ts';
import { ftsPhrase, newestHits, SNIPPET_WORDS, type FindField, type FindHit, type FindOptions } from './find-query.ts';
import { fts5Snippet } from './fts5-snippet.ts';
import { fts5PhrasePattern, fts5Words } from './fts5-words.ts';
import type { MachineLabel } from './machine-identity.ts';
import { Parameters } from './postgres-parameters.ts';
import type { TeamRows } from './postgres-memory.ts';
import { machinesOf, withMachines } from './with-machines.ts';

type FindRow = Omit<FindHit, 'field' | 'sourceDeleted' | 'snippet' | 'machines'> & {
  sourceDeleted: number;
  text: string;
  fieldAt: number;
  machines: MachineLabel[] | null;
};

/**
 * `findPhrase` on PostgreSQL: a phrase is matched on the texts' FTS5 words (`LIKE '% word word %'`, served by a
 * GIN index of each text's word list), a phrase with CJK characters as a substring of the texts that hold them; newest rows first,
 * snippets cut as FTS5 cuts them.
 */
export async function postgresFind(
  rows: TeamRows,
  phrase: string,
  options: FindOptions = {},
  /** The connection is a person's role, subject to row-level security: turns are found by `weft_find_turns`. */
  policed = false,
): Promise<FindHit[]> {
  ftsPhrase(phrase); // The same refusal of a phrase without words.
  const limit = options.limit ?? 20;
  // A turn several machines hold (a synced session folder) is one hit naming them all: its rows fold into one,
  // so rows are read on until `limit` hits are found or the rows run out.
  for (let read = limit; ; read *= 2) {
    const { hits, full } = hasCjk(phrase)
      ? await findCjkRows(rows, phrase, options, read)
      : await findRows(rows, phrase, options, read, policed);
    const seen = new Set<string>();
    const once = hits.filter((hit) => {
      const key = `${hit.field}\u0000${hit.turnKey}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (once.length >= limit || !full) return newestHits(once, limit);
  }
}

/**
 * Up to `limit` rows of each field, newest first, with their machines: one statement (a `UNION ALL` of the
 * fields, each served by its pg_trgm GIN index and checked by the LIKE); `full` when a field had that many.
 */
async function findRows(
  rows: TeamRows,
  phrase: string,
  options: FindOptions,
  limit: number,
  policed: boolean,
): Promise<{ hits: FindHit[]; full: boolean }> {
  const parameters = new Parameters();
  const pattern = parameters.add(fts5PhrasePattern(phrase));
  // Whole words, so a matching row's word list holds them all (005-word-lists.sql): the index proposes, LIKE decides.
  const words = parameters.add(fts5Words(phrase));
  const holds = (column: string) => `weft_words(${column}) @> weft_words(${words}) AND ${column} LIKE ${pattern}`;
  const limited = parameters.add(limit);
  const base = options.cwd ? options.cwd.replace(/\/+$/, '') : null;
  const cwdRange = base !== null ? [base || '/', `${base}/`, `${base}0`].map((value) => parameters.add(value)) : null;
  const cwdFilter =
    cwdRange !== null ? `AND (c.cwd = ${cwdRange[0]} OR (c.cwd > ${cwdRange[1]} AND c.cwd < ${cwdRange[2]}))` : '';
  const cwdArguments = cwdRange?.map((value) => `${value}::text`).join(', ') ?? 'NULL, NULL, NULL';
  // Under the policies the phrase tests could not use their index (007-grants-once.sql): the function finds the
  // ids the person may read through it, and the rows are then read by id, under the policies still.
  const turnsHolding = (column: string) =>
    policed
      ? `c.id = ANY (ARRAY(SELECT weft_find_turns('${column}', ${words}::text, ${pattern}::text, ${cwdArguments}, ${limited}::int)))`
      : `${holds(`c.${column}`)} ${cwdFilter}`;
  const fields: FindField[] = options.in ? [options.in] : ['question', 'answer', 'material'];
  const selects = fields.map((field) =>
    field === 'material'
      ? `(SELECT 2 AS "fieldAt", c.id, c.runner, c.session_id AS "sessionId", NULL::int AS turn,
           c.turn_key AS "turnKey", c.cwd, c.at, 0 AS "sourceDeleted", c.text FROM materials c
         WHERE ((${holds('c.title_words')}) OR (${holds('c.text_words')})) ${cwdFilter}
         ORDER BY c.id DESC LIMIT ${limited})`
      : `(SELECT ${field === 'question' ? 0 : 1} AS "fieldAt", c.id, s.runner, s.session_id AS "sessionId",
           c.number AS turn, c.turn_key AS "turnKey", c.cwd, c.at, (src.deleted_at IS NOT NULL)::int AS "sourceDeleted",
           c.${field === 'question' ? 'user_text' : 'assistant_text'} AS text
         FROM turns c JOIN sessions s ON s.id = c.session_row JOIN sources src ON src.id = s.source_id
         WHERE ${turnsHolding(field === 'question' ? 'user_words' : 'assistant_words')}
         ORDER BY c.id DESC LIMIT ${limited})`,
  );
  const found = await rows<FindRow>(
    `SELECT f.*, ${machinesOf('f."turnKey"')} AS machines FROM (${selects.join(' UNION ALL ')}) f
     ORDER BY f."fieldAt", f.id DESC`,
    parameters.values,
  );
  const FIELDS: readonly FindField[] = ['question', 'answer', 'material'];
  const counts = [0, 0, 0];
  // Keys in the order SQLite's rows give them: the JSON is compared byte for byte.
  const hits = found.map(({ fieldAt, runner, sessionId, turn, turnKey, cwd, at, sourceDeleted, text, machines }) => {
    counts[fieldAt]! += 1;
    const hit: FindHit = {
      runner,
      sessionId,
      turn,
      turnKey,
      cwd,
      at,
      sourceDeleted: sourceDeleted === 1,
      snippet: fts5Snippet(text, phrase, SNIPPET_WORDS),
      field: FIELDS[fieldAt]!,
    };
    return machines === null ? hit : { ...hit, machines };
  });
  return { hits, full: counts.some((count) => count >= limit) };
}

/** `findRows` for a phrase with CJK characters: each field's substring search, then their machines. */
async function findCjkRows(
  rows: TeamRows,
  phrase: string,
  options: FindOptions,
  limit: number,
): Promise<{ hits: FindHit[]; full: boolean }> {
  let full = false;
  const base = options.cwd ? options.cwd.replace(/\/+$/, '') : null;
  const cwdFilter = base !== null ? 'AND (c.cwd = $4 OR (c.cwd > $5 AND c.cwd < $6))' : '';
  const cwdValues = base !== null ? [base || '/', `${base}/`, `${base}0`] : [];
  const fields: FindField[] = options.in ? [options.in] : ['question', 'answer', 'material'];
  const hits: FindHit[] = [];
  for (const field of fields) {
    const found = await findCjkRowsOnPostgres(rows, {
      phrase,
      field,
      cwdFilter,
      cwdValues,
      limit,
    });
    for (const row of found) hits.push({ ...row, field, sourceDeleted: row.sourceDeleted === 1 });
    full ||= found.length >= limit;
  }
  return { hits: await withMachines(rows, hits), full };
}
