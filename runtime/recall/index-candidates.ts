import { MAXIMUM_TEXT_CHARACTERS, type IndexDatabase } from '../index/index.ts';
import { turnKnownAs, type RecallCandidate } from '../../src/core/recall/index.ts';
import { recallStatement } from './recall-statement.ts';

/** Newest hits per term and table that recall reads inside the scope, and outside it (to list what it left out). */
export const IN_SCOPE_HITS_PER_TERM = 100;
export const OUT_OF_SCOPE_HITS_PER_TERM = 20;

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
}

function cwdCondition(column: string): string {
  return `(${column} = @cwd OR (${column} > @low AND ${column} < @high))`;
}

/**
 * C16: the why index's turns and memory rows that hold any of the terms, newest first per term: inside the project
 * (or everywhere, with the global switch) up to 100 per term and table, and a few from outside it so the plan can
 * list what scope left out. The planner ranks, scopes and budgets them; nothing here decides what is sent.
 */
export function indexCandidates(database: IndexDatabase, query: CandidateQuery): RecallCandidate[] {
  const base = query.project ? query.project.replace(/\/+$/, '') || '/' : null;
  const scope = { cwd: base ?? '', low: `${base}/`, high: `${base}0` };
  const passes: { filter: string; limit: number }[] = [];
  if (query.global) passes.push({ filter: '', limit: IN_SCOPE_HITS_PER_TERM });
  else {
    if (base !== null) passes.push({ filter: `AND ${cwdCondition('c.cwd')}`, limit: IN_SCOPE_HITS_PER_TERM });
    passes.push({
      filter: base !== null ? `AND NOT ${cwdCondition("coalesce(c.cwd, '')")}` : '',
      limit: OUT_OF_SCOPE_HITS_PER_TERM,
    });
  }
  const turnIds = new Set<number>();
  const materialIds = new Set<number>();
  for (const term of query.terms) {
    const cjk = CJK_ONLY.test(term);
    for (const pass of passes) {
      const parameters = { ...scope, match: `"${term.replaceAll('"', '""')}"`, needle: term, limit: pass.limit };
      if (cjk) {
        // unicode61 keeps a CJK run as one token: a CJK term is a substring of the CJK texts (trigrams for 3+).
        const lookup =
          [...term].length >= 3
            ? `SELECT x.turn_id AS turnId, x.material_id AS materialId FROM cjk_trigrams f JOIN cjk_texts x ON x.id = f.rowid
               LEFT JOIN turns c ON c.id = x.turn_id LEFT JOIN materials m ON m.id = x.material_id
               WHERE cjk_trigrams MATCH @match ${pass.filter.replaceAll('c.cwd', 'coalesce(c.cwd, m.cwd)')}
               ORDER BY f.rowid DESC LIMIT @limit`
            : `SELECT x.turn_id AS turnId, x.material_id AS materialId FROM cjk_texts x
               LEFT JOIN turns c ON c.id = x.turn_id LEFT JOIN materials m ON m.id = x.material_id
               WHERE instr(x.text, @needle) > 0 ${pass.filter.replaceAll('c.cwd', 'coalesce(c.cwd, m.cwd)')}
               ORDER BY x.id DESC LIMIT @limit`;
        for (const row of recallStatement(database, lookup).all(parameters) as {
          turnId: number | null;
          materialId: number | null;
        }[]) {
          if (row.turnId !== null) turnIds.add(row.turnId);
          if (row.materialId !== null) materialIds.add(row.materialId);
        }
        continue;
      }
      for (const table of ['questions', 'answers']) {
        const ids = recallStatement(
          database,
          `SELECT c.id FROM ${table} f JOIN turns c ON c.id = f.rowid WHERE ${table} MATCH @match ${pass.filter}
           ORDER BY f.rowid DESC LIMIT @limit`,
          { pluck: true },
        ).all(parameters) as number[];
        for (const id of ids) turnIds.add(id);
      }
      const materials = recallStatement(
        database,
        `SELECT c.id FROM materials_text f JOIN materials c ON c.id = f.rowid WHERE materials_text MATCH @match
         ${pass.filter} ORDER BY f.rowid DESC LIMIT @limit`,
        { pluck: true },
      ).all(parameters) as number[];
      for (const id of materials) materialIds.add(id);
    }
  }
  return [...readTurns(database, [...turnIds]), ...readMaterials(database, [...materialIds])];
}

function readTurns(database: IndexDatabase, ids: number[]): RecallCandidate[] {
  if (ids.length === 0) return [];
  const statement = recallStatement(
    database,
    `SELECT c.id, c.turn_key AS key, s.runner, s.session_id AS sessionId, s.title AS sessionTitle, c.number AS turn,
       c.cwd, c.at, substr(c.user_text, 1, ${TEXT_CHARS}) AS question, substr(c.assistant_text, 1, ${TEXT_CHARS}) AS answer,
       c.mirrors, c.status,
       (length(c.user_text) >= ${MAXIMUM_TEXT_CHARACTERS} OR length(c.assistant_text) >= ${MAXIMUM_TEXT_CHARACTERS}) AS clipped
     FROM turns c JOIN sessions s ON s.id = c.session_row WHERE c.id = ?`,
  );
  return ids.map((id) => {
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
      // #29: an interrupted turn, or one the index cut at its cap, is reconstructed (and marked in the block).
      ...turnKnownAs(row.status, row.clipped === 1),
    };
  });
}

function readMaterials(database: IndexDatabase, ids: number[]): RecallCandidate[] {
  if (ids.length === 0) return [];
  const statement = recallStatement(
    database,
    `SELECT id, turn_key AS key, kind, runner, session_id AS sessionId, title, substr(text, 1, ${TEXT_CHARS}) AS text, cwd, at
     FROM materials WHERE id = ?`,
  );
  return ids.map((id) => {
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
    };
  });
}
