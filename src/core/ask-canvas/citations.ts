/** A piece of an answer: plain text, or a node number the model cited (`#12` or `[12]`, `[3, 5]`). */
export type AnswerPiece = { kind: 'text'; text: string } | { kind: 'cite'; number: number; text: string };

// `[12]`, `[#12]`, `[3, 5]` — or a bare `#12` not glued to a word (so `C#12` and `&#12;` stay text).
const CITATION = /\[(#?\d{1,6}(?:\s*,\s*#?\d{1,6})*)\]|(?<![\p{L}\p{N}_#&])#(\d{1,6})(?![\p{L}\p{N}_])/gu;

/**
 * Splits an answer into text and citations of outline numbers 1…`count` (C17). A number outside the outline stays
 * text, so a stray `[2023]` never becomes a link to nothing. In a bracketed list each number is its own piece.
 */
export function splitCitations(text: string, count: number): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let rest = 0;
  const pushText = (value: string) => {
    if (!value) return;
    const last = pieces.at(-1);
    if (last?.kind === 'text') last.text += value;
    else pieces.push({ kind: 'text', text: value });
  };
  for (const match of text.matchAll(CITATION)) {
    const numbers = (match[1] ?? match[2]!).split(',').map((part) => Number(part.trim().replace('#', '')));
    if (!numbers.every((number) => number >= 1 && number <= count)) continue;
    pushText(text.slice(rest, match.index));
    if (match[2] !== undefined) pieces.push({ kind: 'cite', number: numbers[0]!, text: match[0] });
    else {
      pushText('[');
      numbers.forEach((number, index) => {
        if (index > 0) pushText(', ');
        pieces.push({ kind: 'cite', number, text: String(number) });
      });
      pushText(']');
    }
    rest = match.index + match[0].length;
  }
  pushText(text.slice(rest));
  return pieces;
}
