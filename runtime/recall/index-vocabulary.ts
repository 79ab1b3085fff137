import type { IndexDatabase } from '../index/index.ts';
import type { RecallVocabulary } from '../../src/core/recall/index.ts';
import { ftsTerm } from './fts-term.ts';
import { recallStatement } from './recall-statement.ts';

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
/** Connections that already hold the temporary vocabulary tables. */
const withVocabularyTables = new WeakSet<IndexDatabase>();

export function indexVocabulary(
  database: IndexDatabase,
  options: { activeCanvasId?: string; activeNodeKey?: string } = {},
): RecallVocabulary {
  if (!withVocabularyTables.has(database)) {
    for (const [name, table] of VOCABULARY_TABLES)
      database.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5vocab(main, ${table}, row)`);
    withVocabularyTables.add(database);
  }
  // Counted by FTS lookups that stop at the cap: fts5vocab has no index on its term column, so `term = ?` there
  // scans the whole vocabulary (300 ms a plan on the 1 GB corpus).
  const frequencyStatements = ['questions', 'answers', 'materials_text'].map((table) =>
    recallStatement(
      database,
      `SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ${FREQUENCY_CAP})`,
      {
        pluck: true,
      },
    ),
  );
  const neighbourStatements = VOCABULARY_TABLES.map(([name]) =>
    recallStatement(
      database,
      `SELECT term FROM temp.${name} WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?`,
      {
        pluck: true,
      },
    ),
  );
  // The active canvas's own words must not decide the terms: its record reaches the index while the person types,
  // so the preview and the run would otherwise see different words (and its turns are never recalled anyway).
  // With the asked node known, only its own row is taken out: the canvas's other turns are recall candidates, and
  // their words must count (a word only they hold would otherwise be dropped as unknown).
  const node = options.activeNodeKey !== undefined;
  const ownStatements = ['questions', 'answers'].map((table) =>
    recallStatement(
      database,
      node
        ? `SELECT count(*) FROM ${table} f JOIN turns c ON c.id = f.rowid WHERE ${table} MATCH @match AND c.turn_key = @key`
        : `SELECT count(*) FROM ${table} f JOIN turns c ON c.id = f.rowid JOIN sessions s ON s.id = c.session_row
       WHERE ${table} MATCH @match AND s.runner = 'canvas' AND s.session_id = @canvas`,
      { pluck: true },
    ),
  );
  const ownMaterials = recallStatement(
    database,
    node
      ? `SELECT count(*) FROM materials_text f JOIN materials c ON c.id = f.rowid
     WHERE materials_text MATCH @match AND c.kind != 'memory' AND c.turn_key = @key`
      : `SELECT count(*) FROM materials_text f JOIN materials c ON c.id = f.rowid
     WHERE materials_text MATCH @match AND c.kind != 'memory' AND c.session_id = @canvas`,
    { pluck: true },
  );
  const cache = vocabularyCache(database);
  const own = (term: string): number => {
    if (!options.activeCanvasId) return 0;
    const key = `${options.activeNodeKey ?? options.activeCanvasId}\u0000${term}`;
    let count = cache.own.get(key);
    if (count === undefined) {
      const parameters = { match: ftsTerm(term), canvas: options.activeCanvasId, key: options.activeNodeKey ?? '' };
      count = [...ownStatements, ownMaterials].reduce(
        (sum, statement) => sum + (statement.get(parameters) as number),
        0,
      );
      cache.own.set(key, count);
    }
    return count;
  };
  return {
    frequency(term) {
      let known = cache.counts.get(term);
      if (known === undefined) {
        known = frequencyStatements.reduce((sum, statement) => sum + (statement.get(ftsTerm(term)) as number), 0);
        cache.counts.set(term, known);
      }
      return known > 0 && known < OWN_CANVAS_CHECK_BELOW ? known - own(term) : known;
    },
    neighbours(term) {
      const first = String.fromCodePoint(term.codePointAt(0)!);
      const next = String.fromCodePoint(term.codePointAt(0)! + 1);
      const length = term.length;
      const key = `${first}\u0000${length}`;
      let found = cache.neighbours.get(key);
      if (!found) {
        const words = new Set<string>();
        for (const statement of neighbourStatements)
          for (const word of statement.all(first, next, Math.max(1, length - 2), length + 2) as string[])
            words.add(word);
        found = [...words].sort();
        cache.neighbours.set(key, found);
      }
      return [...found];
    },
  };
}

/** What the index answered, kept while it is unchanged (the preview plans the same words on every keystroke). */
interface VocabularyCache {
  version: string;
  /** Capped row counts per word (the active canvas's share not yet taken out). */
  counts: Map<string, number>;
  /** The active canvas's rows per canvas id and word. */
  own: Map<string, number>;
  /** Known words per first letter and length: listing them reads every posting of those words (15–25 ms at 1 GB). */
  neighbours: Map<string, string[]>;
}

/** Entries kept at most before the cache starts over (a long session asks about many words). */
const CACHE_ENTRIES = 20_000;
const caches = new WeakMap<IndexDatabase, VocabularyCache>();

/**
 * The connection's cache, emptied when the index changed: `data_version` moves on another connection's commit,
 * `total_changes()` on this connection's own writes.
 */
function vocabularyCache(database: IndexDatabase): VocabularyCache {
  const version = `${String(recallStatement(database, 'PRAGMA data_version', { pluck: true }).get())}:${String(
    recallStatement(database, 'SELECT total_changes()', { pluck: true }).get(),
  )}`;
  let cache = caches.get(database);
  const size = cache ? cache.counts.size + cache.own.size + cache.neighbours.size : 0;
  if (!cache || cache.version !== version || size > CACHE_ENTRIES) {
    cache = { version, counts: new Map(), own: new Map(), neighbours: new Map() };
    caches.set(database, cache);
  }
  return cache;
}
