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
export function indexVocabulary(database: IndexDatabase): RecallVocabulary {
  for (const [name, table] of VOCABULARY_TABLES)
    database.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5vocab(main, ${table}, row)`);
  const frequencyStatements = VOCABULARY_TABLES.map(([name]) =>
    database.prepare(`SELECT doc FROM temp.${name} WHERE term = ?`).pluck(),
  );
  const neighbourStatements = VOCABULARY_TABLES.map(([name]) =>
    database
      .prepare(`SELECT term FROM temp.${name} WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?`)
      .pluck(),
  );
  const frequencies = new Map<string, number>();
  return {
    frequency(term) {
      let known = frequencies.get(term);
      if (known === undefined) {
        known = frequencyStatements.reduce(
          (sum, statement) => sum + ((statement.get(term) as number | undefined) ?? 0),
          0,
        );
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
