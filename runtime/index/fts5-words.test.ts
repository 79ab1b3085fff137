import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fts5Tokens, fts5Words } from './fts5-words.ts';
import { WORD_TOKENIZER } from './index-schema.ts';
import { probeUnicode61 } from './unicode61-probe.ts';
import { UNICODE61_TABLE } from './unicode61-table.ts';

// Texts where a hand-written Unicode folding goes astray: each is cut by SQLite and by the port.
const TRICKY = [
  'İstanbul ISTANBUL istanbul ıstanbul Iİıi',
  'Diyarbakır’da DİYARBAKIR',
  're\u0301sume\u0301 résumé RÉSUMÉ',
  'e\u0301\u0302 a\u0308\u0304 \u0301lead x\u0305y x\u0340y',
  'ſ ſt Straße STRASSE ẞ ß',
  'ﬁle ﬂow ﬀ ﬃ Ĳ ĳ',
  'ΣΊΣΥΦΟΣ σίσυφος ς Σ Ἀθῆναι αθηναι ΆΈΉ',
  'мой мои Ёлка ёлка йод ЙОД Ї ї',
  'Tiếng Việt ệ ộ ừ Đà Nẵng ǖ ǘ Ǖ',
  'ａｂｃ ＡＢＣ １２３ ｶﾀｶﾅ',
  '1,234.56 3.14 1_000_000 0x1F 10:30 2024-01-02 ½ ² ⅷ ٣٤ ४२',
  "don't rock’n’roll l'été O’Brien",
  'snake_case __init__ a-b a/b a.b',
  '😀 👍🏽 👨‍👩‍👧 🤔 🫠 ❤️ ☃',
  'zero\u200bwidth join\u200dner non\u200cjoiner soft\u00adhyphen',
  '漢字kanji ひらがなと日本語 한국어Korean 中文，标点。',
  'العربية مُحَمَّد שָׁלוֹם עברית',
  'हिन्दी देवनागरी क्षत्रिय',
  'ไทย ภาษาไทย ລາວ ខ្មែរ',
  '𞤀𞤢 𞤀𞤁 𐐀𐐨 Ꭰꭰ Ᏸᏸ ᲐᲑ აბ 𐒰𐓘 𖹀𖹠',
  'Ωmega Åström ℃ K Å ﬀ ǅ ǆ Ǆ',
  'µ μ Μ ΐ ΰ ẞ ǰ J̌',
  'tab\there\nnewline\r\nCRLF',
  'nul \u00a0nbsp \u2028line \ufeffbom \ufffd',
  'ⓐⓑ ⒶⒷ ℌ 𝔄𝔅 𝐀𝐁',
  'Ⅻ ⅻ ① ⑽',
  '\ue000private \u{f0000}plane15 \u{10fffd}plane16',
  '\u0378unassigned \u{1f7e0} \u{e0061}tag',
  'ǈ ǉ Ǉ ǋ ǌ Ǌ',
  'ÆØÅ æøå Œuvre œuvre Ð ð Þ þ Ł ł',
];

interface Probe {
  wordsOf(text: string): string[];
  marked(text: string, phrase: string): string;
}

function sqliteProbe(): Probe {
  const database = new Database(':memory:');
  database.exec(`CREATE VIRTUAL TABLE t USING fts5(a, tokenize=${WORD_TOKENIZER});
    CREATE VIRTUAL TABLE t_words USING fts5vocab(t, 'instance');`);
  const insert = database.prepare('INSERT INTO t (rowid, a) VALUES (1, ?)');
  const clear = database.prepare('DELETE FROM t');
  const words = database.prepare('SELECT term FROM t_words ORDER BY offset').pluck();
  const highlight = database.prepare(`SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH ?`).pluck();
  const withText = <T>(text: string, read: () => T): T => {
    clear.run();
    insert.run(text);
    return read();
  };
  return {
    wordsOf: (text) => withText(text, () => words.all() as string[]),
    marked: (text, phrase) =>
      withText(text, () => highlight.get(`"${phrase.replaceAll('"', '""')}"`) as string | undefined) ?? text,
  };
}

/** `text` with every token whose word is `word` in brackets, as FTS5's highlight() marks a one-word phrase. */
function markedByPort(text: string, word: string): string {
  let marked = '';
  let offset = 0;
  for (const token of fts5Tokens(text)) {
    if (token.word !== word) continue;
    marked += `${text.slice(offset, token.start)}[${text.slice(token.start, token.end)}]`;
    offset = token.end;
  }
  return marked + text.slice(offset);
}

describe('the unicode61 port the PostgreSQL engine stores its word lists with', () => {
  it('holds the very tables of SQLite’s own tokenizer, for every code point', () => {
    expect(probeUnicode61(WORD_TOKENIZER)).toEqual(UNICODE61_TABLE);
  }, 60_000);

  it('cuts and folds tricky texts into exactly SQLite’s words, at SQLite’s offsets', () => {
    const sqlite = sqliteProbe();
    for (const text of TRICKY) {
      expect({ text, words: fts5Tokens(text).map((token) => token.word) }).toEqual({
        text,
        words: sqlite.wordsOf(text),
      });
      for (const token of fts5Tokens(text)) {
        const phrase = text.slice(token.start, token.end);
        expect({ text, phrase, marked: markedByPort(text, token.word) }).toEqual({
          text,
          phrase,
          marked: sqlite.marked(text, phrase),
        });
      }
    }
  });

  it('finds no word FTS5 would not find: Latin loses its diacritics, other scripts keep theirs', () => {
    expect(fts5Words('Résumé İstanbul ſ')).toBe(' resume istanbul s ');
    expect(fts5Words('мой')).not.toBe(fts5Words('мои'));
    expect(fts5Words('Ἀθῆναι')).not.toBe(fts5Words('αθηναι'));
    expect(fts5Words('𞤀𞤢')).not.toBe(fts5Words('𞤢𞤢'));
  });

  it('agrees with SQLite on random mixtures of scripts, marks and separators', () => {
    const sqlite = sqliteProbe();
    const pieces = [...new Set(TRICKY.join('').replace(/\s/gu, ''))].concat([' ', '\u0301', '\u0308', '-', 'A', 'z']);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (characters) => {
        const text = characters.join('');
        expect(fts5Words(text)).toBe(` ${sqlite.wordsOf(text).join(' ')} `.replace(/^ {2}$/u, ' '));
      }),
      { numRuns: 500 },
    );
  });
});
