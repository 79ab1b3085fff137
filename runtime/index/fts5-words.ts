/**
 * SQLite FTS5's `unicode61` tokenizer (its defaults: token characters are the categories L*, N* and Co, ASCII only
 * [0-9A-Za-z]; case folded, diacritics removed), in JavaScript: the PostgreSQL engine stores each text's folded
 * words so `find` matches exactly the phrases FTS5 matches, and cuts the same snippets.
 */
export interface Fts5Token {
  /** Folded (lower case, no diacritics). */
  word: string;
  /** UTF-16 offsets of the token in the text. */
  start: number;
  end: number;
}

const TOKEN_CHARACTER = /[\p{L}\p{N}\p{Co}]/u;
const ASCII_TOKEN_CHARACTER = /[0-9A-Za-z]/;
const DIACRITICS = /\p{Mn}/gu;

function isTokenCharacter(character: string): boolean {
  return character.charCodeAt(0) < 0x80 ? ASCII_TOKEN_CHARACTER.test(character) : TOKEN_CHARACTER.test(character);
}

function fold(character: string): string {
  const lower = character.toLowerCase();
  // One character stays one character (FTS5 folds code point by code point).
  const folded = [...lower].length === 1 ? lower : character;
  const stripped = folded.normalize('NFD').replace(DIACRITICS, '');
  return [...stripped].length === 1 ? stripped : folded;
}

/** The tokens of `text`, in order, as `unicode61` cuts them. */
export function fts5Tokens(text: string): Fts5Token[] {
  const tokens: Fts5Token[] = [];
  let start = -1;
  let word = '';
  let offset = 0;
  for (const character of text) {
    if (isTokenCharacter(character)) {
      if (start < 0) start = offset;
      word += fold(character);
    } else if (start >= 0) {
      tokens.push({ word, start, end: offset });
      start = -1;
      word = '';
    }
    offset += character.length;
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
