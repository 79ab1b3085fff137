import Database from 'better-sqlite3';

/**
 * What SQLite's FTS5 tokenizer does with each code point, read from SQLite itself: which code points are token
 * characters, which combining marks continue a token (and are dropped from it), and how each token character folds.
 * `fts5-words.ts` tokenizes with these tables; `scripts/generate-unicode61-table.ts` writes them to
 * `unicode61-table.ts`, and the test compares that file with a fresh probe so an upgraded SQLite cannot drift apart.
 */
export interface Unicode61Table {
  /** Code points where token-ness flips, ascending; code points from an even index to the next are token characters. */
  tokenBoundaries: number[];
  /** Combining marks that do not start a token but continue one, and vanish from its word. */
  continuingMarks: number[];
  /** Folding runs `[first, last, delta, step]`: every `step`-th code point from `first` to `last` becomes `+ delta`. */
  folds: [number, number, number, number][];
}

const LAST_CODE_POINT = 0x10ffff;

function isSurrogate(codePoint: number): boolean {
  return codePoint >= 0xd800 && codePoint <= 0xdfff;
}

/** Each code point `c` is indexed as the text `c b c b`: a token character gives one word `F b F b` (F its fold), a
 * continuing mark one word `b F b` (it cannot start a token), a separator the two words `b`, `b`. */
function probeWords(tokenize: string): Map<number, string[]> {
  const database = new Database(':memory:');
  try {
    database.exec(`CREATE VIRTUAL TABLE probe USING fts5(a, tokenize=${tokenize});
      CREATE VIRTUAL TABLE probe_words USING fts5vocab(probe, 'instance');`);
    const insert = database.prepare('INSERT INTO probe (rowid, a) VALUES (?, ?)');
    database.transaction(() => {
      for (let codePoint = 1; codePoint <= LAST_CODE_POINT; codePoint++) {
        if (isSurrogate(codePoint)) continue;
        const character = String.fromCodePoint(codePoint);
        insert.run(codePoint, `${character}b${character}b`);
      }
    })();
    const words = new Map<number, string[]>();
    const rows = database.prepare('SELECT term, doc, offset FROM probe_words').iterate() as Iterable<{
      term: string;
      doc: number;
      offset: number;
    }>;
    for (const row of rows) {
      const list = words.get(row.doc) ?? [];
      list[row.offset] = row.term;
      words.set(row.doc, list);
    }
    return words;
  } finally {
    database.close();
  }
}

function foldRuns(folded: Map<number, number>): [number, number, number, number][] {
  const runs: [number, number, number, number][] = [];
  for (const [codePoint, fold] of folded) {
    const delta = fold - codePoint;
    const run = runs.at(-1);
    if (run !== undefined && run[2] === delta) {
      const step = codePoint - run[1];
      if (run[0] === run[1] && (step === 1 || step === 2)) {
        run[1] = codePoint;
        run[3] = step;
        continue;
      }
      if (step === run[3]) {
        run[1] = codePoint;
        continue;
      }
    }
    runs.push([codePoint, codePoint, delta, 1]);
  }
  return runs;
}

/** The tables of the FTS5 tokenizer `tokenize` (an option as written in `CREATE VIRTUAL TABLE`, e.g. `'unicode61'`). */
export function probeUnicode61(tokenize: string): Unicode61Table {
  const words = probeWords(tokenize);
  const tokenBoundaries: number[] = [];
  const continuingMarks: number[] = [];
  const folded = new Map<number, number>();
  let inToken = false;
  for (let codePoint = 0; codePoint <= LAST_CODE_POINT; codePoint++) {
    let isToken = false;
    if (codePoint > 0 && !isSurrogate(codePoint)) {
      const [first, second, ...rest] = words.get(codePoint) ?? [];
      const parts = [...(first ?? '')];
      if (first === 'b' && second === 'b' && rest.length === 0) {
        isToken = false;
      } else if (second === undefined && parts.length === 4 && parts[0] === parts[2] && parts[1] === 'b') {
        isToken = true;
        const fold = parts[0]!.codePointAt(0)!;
        if (fold !== codePoint) folded.set(codePoint, fold);
      } else if (second === undefined && first === 'bb') {
        continuingMarks.push(codePoint);
      } else {
        throw new Error(`unicode61 probe: U+${codePoint.toString(16)} gave ${JSON.stringify(words.get(codePoint))}`);
      }
    }
    if (isToken !== inToken) {
      tokenBoundaries.push(codePoint);
      inToken = isToken;
    }
  }
  return { tokenBoundaries, continuingMarks, folds: foldRuns(folded) };
}
