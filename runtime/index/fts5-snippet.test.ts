import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fts5Snippet } from './fts5-snippet.ts';
import { fts5PhrasePattern, fts5Words } from './fts5-words.ts';

// Words that exercise the tokenizer: case, diacritics, a ligature, sentence ends, CJK runs, punctuation inside words.
const WORDS = [
  'alpha',
  'Beta',
  'gamma.',
  'delta:',
  'Café',
  'naïve',
  'x_y',
  'über',
  '日本語',
  'α',
  'build',
  'test',
  'the',
  'fix',
  'README.md',
  '\n',
  '  ',
  'ÉCOLE',
  'ﬁ',
  'İstanbul',
  'cafe',
  'NAIVE',
];

describe('the FTS5 port the PostgreSQL engine finds and cuts snippets with', () => {
  it('matches a phrase exactly where SQLite FTS5 does and cuts the same snippet, byte for byte', () => {
    const database = new Database(':memory:');
    database.exec("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='unicode61')");
    const insert = database.prepare('INSERT INTO t (rowid, a) VALUES (1, ?)');
    const snippet = database.prepare(`SELECT snippet(t, 0, '[', ']', '…', 16) AS s FROM t WHERE t MATCH ?`);
    const word = fc.constantFrom(...WORDS);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 70 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (textWords, phraseWords) => {
          const text = textWords.join(' ');
          const phrase = phraseWords.join(' ');
          fc.pre(/[\p{L}\p{N}]/u.test(phrase));
          database.exec('DELETE FROM t');
          insert.run(text);
          const row = snippet.get(`"${phrase}"`) as { s: string } | undefined;
          expect(fts5Words(text).includes(fts5PhrasePattern(phrase).slice(1, -1))).toBe(row !== undefined);
          if (row) expect(fts5Snippet(text, phrase, 16)).toBe(row.s);
        },
      ),
      { numRuns: 3000, seed: 32 },
    );
    database.close();
  });
});
