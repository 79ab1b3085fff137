import { MAXIMUM_TEXT_CHARACTERS, type IndexDatabase } from '../index/index.ts';
import { turnKnownAs, type RecallCandidate } from '../../src/core/recall/index.ts';
import { ftsTerm } from './fts-term.ts';
import { recallStatement } from './recall-statement.ts';

/** Best hits per table that recall reads inside the scope, and outside it (to list what it left out). */
export const IN_SCOPE_HITS_PER_TERM = 100;
export const OUT_OF_SCOPE_HITS_PER_TERM = 20;
/**
 * A term in more rows than this is too common to rank by: `bm25()` scores every row a term matches, so such a term
 * only counts toward coverage (when every term is this common, the newest rows holding each are read instead).
 */
export const COMMON_TERM_ROWS = 3000;

/**
 * Characters of each text read: an excerpt shows at most its opening (600 + 1,400), so terms are matched and
 * ranked on what the block could carry, and a turn with megabytes of output costs what a short one does.
 */
const TEXT_CHARS = 4000;

const CJK_ONLY = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;

interface TurnRow {
  id: number;
  key: string;
  runner: string;
  sessionId: string;
  sessionTitle: string;
  turn: number;
  cwd: string | null;
  at: number | null;
  question: string;
  answer: string;
  mirrors: string | null;
  status: string | null;
  clipped: number;
}

interface MaterialRow {
  id: number;
  key: string;
  kind: string;
  runner: string | null;
  sessionId: string | null;
  title: string;
  text: string;
  cwd: string | null;
  at: number | null;
}

export interface CandidateQuery {
  terms: readonly string[];
  /** The canvas's working directory; null reads no in-scope rows (only the global switch reaches anything). */
  project: string | null;
  global: boolean;
  /** Rows holding a term (the vocabulary's count); absent, every term is ranked by `bm25()`. */
  frequency?: (term: string) => number;
  /** The active canvas: its turns and notes are read in a pass of their own (the planner scopes them). */
  canvasId?: string | null;
  /** Turn keys read whatever words they hold (turns labelled with the question's topics), marked topical. */
  topicalKeys?: readonly string[];
}

/** A pass over the index: which rows (turns `c` of sessions, or materials `c`; CJK texts `x`) and how many. */
interface Pass {
  turns: string;
  materials: string;
  /** For the CJK lookups, whose `f` is the trigram table; absent, the turn filter with `coalesce(c.cwd, m.cwd)`. */
  cjk?: string;
  limit: number;
}

function cwdCondition(column: string): string {
  return `(${column} = @cwd OR (${column} > @low AND ${column} < @high))`;
}

/**
 * C16: the why index's turns and memory rows that hold the terms: the best by `bm25()` over every term rare enough
 * to rank by, inside the project (or everywhere, with the global switch) up to 100 per table, a few from outside it
 * so the plan can list what scope left out, the active canvas's own rows, and the turns labelled with the
 * question's topics. The planner ranks, scopes and budgets them; nothing here decides what is sent.
 */
export function indexCandidates(database: IndexDatabase, query: CandidateQuery): RecallCandidate[] {
  const base = query.project ? query.project.replace(/\/+$/, '') || '/' : null;
  const scope: Record<string, string | number> = {
    cwd: base ?? '',
    low: `${base}/`,
    high: `${base}0`,
    canvas: query.canvasId ?? '',
  };
  const passes: Pass[] = [];
  const filters = (filter: string, limit: number): Pass => ({
    turns: filter,
    materials: filter,
    limit,
  });
  if (query.global) passes.push(filters('', IN_SCOPE_HITS_PER_TERM));
  else {
    if (base !== null) passes.push(filters(`AND ${cwdCondition('c.cwd')}`, IN_SCOPE_HITS_PER_TERM));
    passes.push(
      filters(base !== null ? `AND NOT ${cwdCondition("coalesce(c.cwd, '')")}` : '', OUT_OF_SCOPE_HITS_PER_TERM),
    );
  }
  // The active canvas's rows were written together (a canvas is indexed whole): their rowid span lets FTS5 seek to
  // them instead of walking a common word's every posting to find the few that are the canvas's.
  const span = query.canvasId
    ? (recallStatement(
        database,
        `SELECT (SELECT coalesce(min(t.id), 0) FROM turns t JOIN sessions s ON s.id = t.session_row
                 WHERE s.runner = 'canvas' AND s.session_id = @canvas) AS turnLow,
                (SELECT coalesce(max(t.id), -1) FROM turns t JOIN sessions s ON s.id = t.session_row
                 WHERE s.runner = 'canvas' AND s.session_id = @canvas) AS turnHigh,
                (SELECT coalesce(min(id), 0) FROM materials WHERE kind != 'memory' AND session_id = @canvas) AS materialLow,
                (SELECT coalesce(max(id), -1) FROM materials WHERE kind != 'memory' AND session_id = @canvas) AS materialHigh`,
      ).get({ canvas: query.canvasId }) as {
        turnLow: number;
        turnHigh: number;
        materialLow: number;
        materialHigh: number;
      })
    : { turnLow: 0, turnHigh: -1, materialLow: 0, materialHigh: -1 };
  Object.assign(scope, span);
  if (span.turnHigh >= 0 || span.materialHigh >= 0) {
    const own = `c.session_row IN (SELECT id FROM sessions WHERE runner = 'canvas' AND session_id = @canvas)`;
    passes.push({
      turns: `AND f.rowid BETWEEN @turnLow AND @turnHigh AND ${own}`,
      materials: `AND f.rowid BETWEEN @materialLow AND @materialHigh AND c.kind != 'memory' AND c.session_id = @canvas`,
      cjk: `AND (x.turn_id IS NOT NULL AND ${own} OR x.material_id IS NOT NULL AND m.kind != 'memory' AND m.session_id = @canvas)`,
      limit: IN_SCOPE_HITS_PER_TERM,
    });
  }
  const turnScores = new Map<number, number>();
  const materialScores = new Map<number, number>();
  const found = (scores: Map<number, number>, id: number, score: number) =>
    scores.set(id, Math.max(scores.get(id) ?? -Infinity, score));

  const cjkTerms = query.terms.filter((term) => CJK_ONLY.test(term));
  const wordTerms = query.terms.filter((term) => !CJK_ONLY.test(term));
  const ranked = wordTerms.filter((term) => (query.frequency?.(term) ?? 0) <= COMMON_TERM_ROWS);
  // All in one query per table, so a row holding several terms (and rare ones) ranks above one holding one.
  const searches = ranked.length > 0 ? [{ match: ranked.map(ftsTerm).join(' OR '), rank: true }] : [];
  if (ranked.length === 0) for (const term of wordTerms) searches.push({ match: ftsTerm(term), rank: false });
  for (const search of searches)
    for (const pass of passes) {
      const parameters = { ...scope, match: search.match, limit: pass.limit };
      for (const table of ['questions', 'answers']) {
        const order = search.rank ? `bm25(${table})` : 'f.rowid DESC';
        const rows = recallStatement(
          database,
          `SELECT c.id, ${search.rank ? `bm25(${table})` : '0'} AS score FROM ${table} f JOIN turns c ON c.id = f.rowid
           WHERE ${table} MATCH @match ${pass.turns} ORDER BY ${order} LIMIT @limit`,
        ).all(parameters) as { id: number; score: number }[];
        for (const row of rows) found(turnScores, row.id, -row.score);
      }
      const rows = recallStatement(
        database,
        `SELECT c.id, ${search.rank ? 'bm25(materials_text)' : '0'} AS score FROM materials_text f
         JOIN materials c ON c.id = f.rowid WHERE materials_text MATCH @match ${pass.materials}
         ORDER BY ${search.rank ? 'bm25(materials_text)' : 'f.rowid DESC'} LIMIT @limit`,
      ).all(parameters) as { id: number; score: number }[];
      for (const row of rows) found(materialScores, row.id, -row.score);
    }

  for (const term of cjkTerms)
    for (const pass of passes) {
      const parameters = { ...scope, match: `"${term.replaceAll('"', '""')}"`, needle: term, limit: pass.limit };
      // unicode61 keeps a CJK run as one token: a CJK term is a substring of the CJK texts (trigrams for 3+).
      const filter = pass.cjk ?? pass.turns.replaceAll('c.cwd', 'coalesce(c.cwd, m.cwd)');
      const lookup =
        [...term].length >= 3
          ? `SELECT x.turn_id AS turnId, x.material_id AS materialId FROM cjk_trigrams f JOIN cjk_texts x ON x.id = f.rowid
             LEFT JOIN turns c ON c.id = x.turn_id LEFT JOIN materials m ON m.id = x.material_id
             WHERE cjk_trigrams MATCH @match ${filter}
             ORDER BY f.rowid DESC LIMIT @limit`
          : `SELECT x.turn_id AS turnId, x.material_id AS materialId FROM cjk_texts x
             LEFT JOIN turns c ON c.id = x.turn_id LEFT JOIN materials m ON m.id = x.material_id
             WHERE instr(x.text, @needle) > 0 ${filter}
             ORDER BY x.id DESC LIMIT @limit`;
      for (const row of recallStatement(database, lookup).all(parameters) as {
        turnId: number | null;
        materialId: number | null;
      }[]) {
        if (row.turnId !== null) found(turnScores, row.turnId, 0);
        if (row.materialId !== null) found(materialScores, row.materialId, 0);
      }
    }

  const topical = new Set<number>();
  const byKey = recallStatement(database, 'SELECT id FROM turns WHERE turn_key = ?', { pluck: true });
  for (const key of query.topicalKeys ?? []) {
    const id = byKey.get(key) as number | undefined;
    if (id === undefined) continue;
    topical.add(id);
    if (!turnScores.has(id)) turnScores.set(id, 0);
  }
  return [...readTurns(database, turnScores, topical), ...readMaterials(database, materialScores)];
}

/** bm25 to six places: the same rows score the same whatever the float noise of the sum. */
function rounded(score: number): number {
  return Number.isFinite(score) ? Math.round(score * 1e6) / 1e6 : 0;
}

function readTurns(database: IndexDatabase, scores: Map<number, number>, topical: Set<number>): RecallCandidate[] {
  if (scores.size === 0) return [];
  const statement = recallStatement(
    database,
    `SELECT c.id, c.turn_key AS key, s.runner, s.session_id AS sessionId, s.title AS sessionTitle, c.number AS turn,
       c.cwd, c.at, substr(c.user_text, 1, ${TEXT_CHARS}) AS question, substr(c.assistant_text, 1, ${TEXT_CHARS}) AS answer,
       c.mirrors, c.status,
       (length(c.user_text) >= ${MAXIMUM_TEXT_CHARACTERS} OR length(c.assistant_text) >= ${MAXIMUM_TEXT_CHARACTERS}) AS clipped
     FROM turns c JOIN sessions s ON s.id = c.session_row WHERE c.id = ?`,
  );
  return [...scores].map(([id, score]) => {
    const row = statement.get(id) as TurnRow;
    const canvasId = row.runner === 'canvas' ? row.sessionId : null;
    return {
      key: row.key,
      kind: 'turn',
      runner: row.runner,
      sessionId: row.sessionId,
      sessionTitle: row.sessionTitle,
      turn: row.turn,
      cwd: row.cwd,
      at: row.at,
      question: row.question,
      answer: row.answer,
      canvasId,
      mirrors: row.mirrors,
      score: rounded(score),
      topical: topical.has(id),
      // #29: an interrupted turn, or one the index cut at its cap, is reconstructed (and marked in the block).
      ...turnKnownAs(row.status, row.clipped === 1),
    };
  });
}

function readMaterials(database: IndexDatabase, scores: Map<number, number>): RecallCandidate[] {
  if (scores.size === 0) return [];
  const statement = recallStatement(
    database,
    `SELECT id, turn_key AS key, kind, runner, session_id AS sessionId, title, substr(text, 1, ${TEXT_CHARS}) AS text, cwd, at
     FROM materials WHERE id = ?`,
  );
  return [...scores].map(([id, score]) => {
    const row = statement.get(id) as MaterialRow;
    const onCanvas = row.kind !== 'memory';
    return {
      key: row.key,
      kind: 'memory',
      runner: onCanvas ? 'canvas' : row.runner,
      sessionId: row.sessionId,
      sessionTitle: row.title,
      turn: null,
      cwd: row.cwd,
      at: row.at,
      question: row.title,
      answer: row.text,
      canvasId: onCanvas ? row.sessionId : null,
      mirrors: null,
      score: rounded(score),
    };
  });
}
