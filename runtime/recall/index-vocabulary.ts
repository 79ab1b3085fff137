import type { IndexDatabase } from '../index/index.ts';
import type { RecallVocabulary } from '../../src/core/recall/index.ts';

/** The word tables of the index's FTS5 indexes, read through `fts5vocab` (temporary, per connection). */
const VOCABULARY_TABLES = [
  ['recall_vocab_questions', 'questions'],
  ['recall_vocab_answers', 'answers'],
  ['recall_vocab_materials', 'materials_text'],
] as const;

/**
 * C16: the index vocabulary recall corrects typos against. `frequency` is how many turns (and material rows)
 * hold the word; `neighbours` are the known words sharing its first letter within two characters of its length
 * (a typo in the first letter is not corrected: scanning every word would cost what the whole plan may).
 */
/** Below this many rows, the active canvas's own occurrences of a word are taken out of its count. */
const OWN_CANVAS_CHECK_BELOW = 1000;
/** Rows counted per table at most: past this a word is common, and its exact count changes no choice. */
const FREQUENCY_CAP = 5000;

export function indexVocabulary(database: IndexDatabase, options: { activeCanvasId?: string } = {}): RecallVocabulary {
  for (const [name, table] of VOCABULARY_TABLES)
    database.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5vocab(main, ${table}, row)`);
  // Counted by FTS lookups that stop at the cap: fts5vocab has no index on its term column, so `term = ?` there
  // scans the whole vocabulary (300 ms a plan on the 1 GB corpus).
  const frequencyStatements = ['questions', 'answers', 'materials_text'].map((table) =>
    database
      .prepare(`SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ${FREQUENCY_CAP})`)
      .pluck(),
  );
  const neighbourStatements = VOCABULARY_TABLES.map(([name]) =>
    database
      .prepare(`SELECT term FROM temp.${name} WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?`)
      .pluck(),
  );
  // The active canvas's own words must not decide the terms: its record reaches the index while the person types,
  // so the preview and the run would otherwise see different words (and its turns are never recalled anyway).
  const ownStatements = ['questions', 'answers'].map((table) =>
    database
      .prepare(
        `SELECT count(*) FROM ${table} f JOIN turns c ON c.id = f.rowid JOIN sessions s ON s.id = c.session_row
         WHERE ${table} MATCH @match AND s.runner = 'canvas' AND s.session_id = @canvas`,
      )
      .pluck(),
  );
  const ownMaterials = database
    .prepare(
      `SELECT count(*) FROM materials_text f JOIN materials c ON c.id = f.rowid
       WHERE materials_text MATCH @match AND c.kind != 'memory' AND c.session_id = @canvas`,
    )
    .pluck();
  const own = (term: string): number => {
    if (!options.activeCanvasId) return 0;
    const parameters = { match: `"${term.replaceAll('"', '""')}"`, canvas: options.activeCanvasId };
    return [...ownStatements, ownMaterials].reduce((sum, statement) => sum + (statement.get(parameters) as number), 0);
  };
  const frequencies = new Map<string, number>();
  return {
    frequency(term) {
      let known = frequencies.get(term);
      if (known === undefined) {
        known = frequencyStatements.reduce(
          (sum, statement) => sum + (statement.get(`"${term.replaceAll('"', '""')}"`) as number),
          0,
        );
        if (known > 0 && known < OWN_CANVAS_CHECK_BELOW) known -= own(term);
        frequencies.set(term, known);
      }
      return known;
    },
    neighbours(term) {
      const first = String.fromCodePoint(term.codePointAt(0)!);
      const next = String.fromCodePoint(term.codePointAt(0)! + 1);
      const length = term.length;
      const words = new Set<string>();
      for (const statement of neighbourStatements)
        for (const word of statement.all(first, next, Math.max(1, length - 2), length + 2) as string[]) words.add(word);
      return [...words].sort();
    },
  };
}
