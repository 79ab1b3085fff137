/** One sentence of an answer: its 1-based number, its verbatim text and where it sits in the answer. */
export interface AnswerSentence {
  number: number;
  text: string;
  start: number;
  end: number;
}

const FENCE = /^\s*(```|~~~)/;
// Markdown's line openers (heading, quote, list bullet or number) are layout, not words of the sentence.
const LINE_OPENER = /^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d{1,3}[.)]\s+)*/;
// Sentence ends an abbreviation or initial does not make (the segmenter splits after "e.g." and "Dr.").
const NOT_AN_END = /(?:\b(?:e\.g|i\.e|etc|vs|cf|Dr|Mr|Mrs|Ms|St|No|Fig|approx|al)\.|\b[A-Z]\.)\s*$/;

let segmenter: Intl.Segmenter | null = null;

function sentenceSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  return segmenter;
}

/**
 * The answer's sentences, numbered from 1, as a model is shown them and as a plaque's abstract quotes them. Code
 * blocks, table rows and blank lines are no sentences; each other line is split with the platform's sentence
 * segmenter (Unicode's rules), joining back the splits it makes after common abbreviations. Every text is a
 * verbatim slice of the answer.
 */
export function splitSentences(answer: string): AnswerSentence[] {
  const sentences: AnswerSentence[] = [];
  let inFence = false;
  let lineStart = 0;
  for (const line of answer.split('\n')) {
    const offset = lineStart;
    lineStart += line.length + 1;
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line.trim() === '' || line.trimStart().startsWith('|')) continue;
    const opener = LINE_OPENER.exec(line)?.[0].length ?? 0;
    let pending: { start: number; end: number } | null = null;
    for (const segment of sentenceSegmenter().segment(line.slice(opener))) {
      const start = offset + opener + segment.index;
      const end = start + segment.segment.length;
      pending = pending ? { start: pending.start, end } : { start, end };
      if (NOT_AN_END.test(answer.slice(pending.start, pending.end))) continue;
      push(sentences, answer, pending);
      pending = null;
    }
    if (pending) push(sentences, answer, pending);
  }
  return sentences;
}

function push(sentences: AnswerSentence[], answer: string, span: { start: number; end: number }): void {
  const raw = answer.slice(span.start, span.end);
  const leading = raw.length - raw.trimStart().length;
  const text = raw.trim();
  // A line of punctuation or markup alone (a horizontal rule, a lone emoji) says nothing.
  if (!/[\p{L}\p{N}]/u.test(text)) return;
  const start = span.start + leading;
  sentences.push({ number: sentences.length + 1, text, start, end: start + text.length });
}
