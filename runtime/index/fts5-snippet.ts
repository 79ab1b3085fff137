import { fts5Tokens, type Fts5Token } from './fts5-words.ts';

const ELLIPSIS = '…';

/**
 * FTS5's `snippet(table, column, '[', ']', '…', size)` for a one-phrase query, ported from `fts5_aux.c`
 * (SQLite 3.4x): the window of `size` tokens scoring most phrase hits (a window starting a sentence scores a bonus),
 * hits in brackets, an ellipsis where text is cut. The PostgreSQL engine cuts its snippets with it so `find`
 * answers the same bytes from either engine.
 */
export function fts5Snippet(text: string, phrase: string, size: number): string {
  const tokens = fts5Tokens(text);
  const hits = phraseHits(
    tokens,
    fts5Tokens(phrase).map((token) => token.word),
  );
  const phraseSize = Math.max(1, fts5Tokens(phrase).length);
  const sentenceStarts = sentenceFirsts(text, tokens);
  let bestScore = 0;
  let bestStart = 0;
  for (const hit of hits) {
    const scored = score(hits, phraseSize, hit, size, tokens.length);
    if (scored.score > bestScore) {
      bestScore = scored.score;
      bestStart = scored.start;
    }
    if (sentenceStarts.length > 0 && tokens.length > size) {
      let index = 0;
      while (index < sentenceStarts.length - 1 && !(sentenceStarts[index + 1]! > hit)) index += 1;
      const first = sentenceStarts[index]!;
      if (first < hit) {
        const bonus = score(hits, phraseSize, first, size, tokens.length).score + (first === 0 ? 120 : 100);
        if (bonus > bestScore) {
          bestScore = bonus;
          bestStart = first;
        }
      }
    }
  }
  return highlight(text, tokens, coalesce(hits, phraseSize), bestStart, bestStart + size - 1);
}

function phraseHits(tokens: Fts5Token[], words: string[]): number[] {
  if (words.length === 0) return [];
  const hits: number[] = [];
  for (let at = 0; at + words.length <= tokens.length; at += 1) {
    if (words.every((word, offset) => tokens[at + offset]!.word === word)) hits.push(at);
  }
  return hits;
}

/** `fts5SentenceFinderCb`: token 0, and each token after a '.' or ':' followed by white space. */
function sentenceFirsts(text: string, tokens: Fts5Token[]): number[] {
  const firsts: number[] = [];
  tokens.forEach((token, position) => {
    if (position === 0) {
      firsts.push(0);
      return;
    }
    let at = token.start - 1;
    while (at >= 0 && ' \t\n\r'.includes(text[at]!)) at -= 1;
    if (at !== token.start - 1 && at >= 0 && (text[at] === '.' || text[at] === ':')) firsts.push(position);
  });
  return firsts;
}

/** `fts5SnippetScore` for one phrase: 1000 for the first hit in the window, 1 for each further one. */
function score(
  hits: number[],
  phraseSize: number,
  position: number,
  size: number,
  documentSize: number,
): { score: number; start: number } {
  let total = 0;
  let first = -1;
  let last = 0;
  for (const hit of hits) {
    if (hit >= position && hit < position + size) {
      total += total === 0 ? 1000 : 1;
      if (first < 0) first = hit;
      last = hit + phraseSize;
    }
  }
  let start = first - Math.trunc((size - (last - first)) / 2);
  if (start + size > documentSize) start = documentSize - size;
  if (start < 0) start = 0;
  return { score: total, start };
}

/** `fts5CInstIter`: overlapping hits merged into one [start, end] token range. */
function coalesce(hits: number[], phraseSize: number): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (const hit of hits) {
    const last = ranges.at(-1);
    if (last && hit <= last.end) last.end = Math.max(last.end, hit + phraseSize - 1);
    else ranges.push({ start: hit, end: hit + phraseSize - 1 });
  }
  return ranges;
}

/** `fts5HighlightCb` over the window [rangeStart, rangeEnd], then the tail or an ellipsis. */
function highlight(
  text: string,
  tokens: Fts5Token[],
  ranges: { start: number; end: number }[],
  rangeStart: number,
  rangeEnd: number,
): string {
  let out = rangeStart > 0 ? ELLIPSIS : '';
  let offset = 0;
  let open = false;
  let next = 0;
  while (next < ranges.length && ranges[next]!.start < rangeStart) next += 1;
  const current = () => ranges[next] ?? { start: -1, end: -1 };
  tokens.forEach((token, position) => {
    if (position < rangeStart || position > rangeEnd) return;
    if (rangeStart > 0 && position === rangeStart) offset = token.start;
    if (open && (position <= current().start || current().start < 0) && token.start > offset) {
      out += ']';
      open = false;
    }
    if (position === current().start && !open) {
      out += text.slice(offset, token.start) + '[';
      offset = token.start;
      open = true;
    }
    if (position === current().end) {
      if (!open) {
        out += '[';
        open = true;
      }
      out += text.slice(offset, token.end);
      offset = token.end;
      next += 1;
    }
    if (position === rangeEnd) {
      if (open) {
        if (current().start >= 0 && position >= current().start) {
          out += text.slice(offset, token.end);
          offset = token.end;
        }
        out += ']';
        open = false;
      }
      out += text.slice(offset, token.end);
      offset = token.end;
    }
  });
  if (open) out += ']';
  return rangeEnd >= tokens.length - 1 ? out + text.slice(offset) : out + ELLIPSIS;
}
