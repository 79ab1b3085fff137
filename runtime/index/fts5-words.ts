import { UNICODE61_TABLE } from './unicode61-table.ts';

/**
 * SQLite FTS5's `unicode61` tokenizer, in JavaScript, with SQLite's own tables (`unicode61-table.ts`, read from the
 * bundled SQLite): which code points are token characters (L*, N*, Co and those SQLite's Unicode tables leave
 * unassigned), which combining marks continue a word and vanish from it, and its folding (its own case table, so no
 * folding past the BMP but Deseret; diacritics removed from Latin letters only). The PostgreSQL engine stores each
 * text's folded words so `find` matches exactly the phrases FTS5 matches, and cuts the same snippets.
 */
export interface Fts5Token {
  /** Folded as FTS5 folds it (lower case, Latin diacritics removed). */
  word: string;
  /** UTF-16 offsets of the token in the text. */
  start: number;
  end: number;
}

const { tokenBoundaries, continuingMarks, folds } = UNICODE61_TABLE;
const CONTINUING_MARKS = new Set(continuingMarks);
const FOLD_STARTS = folds.map((run) => run[0]);

/** The index of the last entry of ascending `values` that is ≤ `value`, or -1. */
function lastAtMost(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (values[middle]! <= value) low = middle + 1;
    else high = middle - 1;
  }
  return high;
}

function isTokenCharacter(codePoint: number): boolean {
  if (codePoint < 0x80) {
    return (codePoint >= 0x30 && codePoint <= 0x39) || ((codePoint | 0x20) >= 0x61 && (codePoint | 0x20) <= 0x7a);
  }
  return lastAtMost(tokenBoundaries, codePoint) % 2 === 0;
}

function fold(codePoint: number): number {
  if (codePoint < 0x80) return codePoint >= 0x41 && codePoint <= 0x5a ? codePoint + 0x20 : codePoint;
  const run = folds[lastAtMost(FOLD_STARTS, codePoint)];
  if (run === undefined || codePoint > run[1] || (codePoint - run[0]) % run[3] !== 0) return codePoint;
  return codePoint + run[2];
}

/** The tokens of `text`, in order, as `unicode61` cuts them. */
export function fts5Tokens(text: string): Fts5Token[] {
  const tokens: Fts5Token[] = [];
  let start = -1;
  let word = '';
  let offset = 0;
  while (offset < text.length) {
    const codePoint = text.codePointAt(offset)!;
    const size = codePoint > 0xffff ? 2 : 1;
    if (isTokenCharacter(codePoint)) {
      if (start < 0) start = offset;
      word += String.fromCodePoint(fold(codePoint));
    } else if (start >= 0 && !CONTINUING_MARKS.has(codePoint)) {
      tokens.push({ word, start, end: offset });
      start = -1;
      word = '';
    }
    offset += size;
  }
  if (start >= 0) tokens.push({ word, start, end: offset });
  return tokens;
}

/**
 * A text's words as PostgreSQL stores them for `find`: folded, one space between, one at each end, so a phrase is
 * found with `LIKE '% word word %'` (a pg_trgm GIN index serves it) exactly where FTS5 finds it.
 */
export function fts5Words(text: string): string {
  const tokens = fts5Tokens(text);
  return tokens.length === 0 ? ' ' : ` ${tokens.map((token) => token.word).join(' ')} `;
}

/** The LIKE pattern of a phrase over `fts5Words` columns; tokens hold no `%`, `_` or `\`. */
export function fts5PhrasePattern(phrase: string): string {
  return `%${fts5Words(phrase)}%`;
}
