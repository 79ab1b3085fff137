import { PLAQUE_TAKEAWAY_MAX, PLAQUE_TOPIC_MAX, type Plaque, type PlaqueRefusal } from '../../../protocol/index.ts';
import { inlineText } from './inline-text.ts';
import { splitSentences } from './split-sentences.ts';
import { abstractSizeFor, type CheckedLadder } from './validate-ladder.ts';

// Words a topic does not start with: the topic is the first words that carry meaning.
const OPENING_WORDS = new Set(
  'a an the this that these those it its in on at of to for and but or so yes no well sure here there is are was were you your we our i'.split(
    ' ',
  ),
);
// Words a phrase cut short must not end on ("Show me a", "Use IndexedDB through"): they promise more words.
const DANGLING_WORDS = new Set([
  ...OPENING_WORDS,
  ...'as by with from into about than then when while if because me my his her their be been has have had do does not'.split(
    ' ',
  ),
]);
// A topic is the takeaway's first clause when it is at most this long (a chip, not a line).
const TOPIC_CLAUSE_MAX = 48;
// A clause that has to be cut to words (no punctuation in reach) keeps about this many characters.
const TOPIC_WORDS_MAX = 32;
// Where a clause ends inside a sentence: , ; : ( an em dash or a spaced dash, and the sentence's own end (an en
// dash between numbers, "75–80", is a range, not an end).
const CLAUSE_END = /[,;:.!?…]+(?=\s|$)|\s+[([]|\s+[—–-]\s+|—/gu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_.°%/-]*/gu;

const meaningful = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** Where each clause of `text` ends (an index into it), in order, the text's end last. */
function clauseEnds(text: string): number[] {
  const ends = [...text.matchAll(CLAUSE_END)].map((match) => match.index);
  return [...ends.filter((end) => end > 0 && meaningful(text.slice(0, end))), text.length];
}

/** `text` cut to at most `limit` characters at a word that does not dangle, or null when no word fits. */
function wordsWithin(text: string, limit: number): string | null {
  const words = [...text.matchAll(WORD)].filter((word) => word.index + word[0].length <= limit);
  while (words.length > 1 && DANGLING_WORDS.has(words[words.length - 1]![0].toLowerCase())) words.pop();
  const last = words[words.length - 1];
  return last ? text.slice(0, last.index + last[0].length) : null;
}

/**
 * A sentence that fits a takeaway: whole when it fits, else its longest run of whole clauses that fits (marked
 * with `…`), and only when its first clause alone is too long, its words up to one that does not dangle.
 */
function wholeTakeaway(sentence: string): string {
  if (sentence.length <= PLAQUE_TAKEAWAY_MAX) return sentence;
  const fitting = clauseEnds(sentence).filter((end) => end <= PLAQUE_TAKEAWAY_MAX - 1);
  const end = fitting[fitting.length - 1];
  const head = end !== undefined ? sentence.slice(0, end) : wordsWithin(sentence, PLAQUE_TAKEAWAY_MAX - 1);
  return `${(head ?? sentence.slice(0, PLAQUE_TAKEAWAY_MAX - 1)).trimEnd()}…`;
}

/**
 * A few words copied from inside the takeaway (so it always occurs there), skipping its opening filler: its first
 * clause when that is short ("Bakers recommend 75–80 °F", not "Bakers recommend 75"), else its first words up to
 * one that does not dangle ("Show me a" is never a topic).
 */
export function ruleTopic(takeaway: string): string {
  const words = [...takeaway.matchAll(WORD)];
  let first = words.findIndex((word) => !OPENING_WORDS.has(word[0].toLowerCase()));
  if (first < 0) first = 0;
  const start = words[first]?.index;
  if (start === undefined) return '';
  const rest = takeaway.slice(start);
  const clause = rest.slice(0, clauseEnds(rest)[0]).trim();
  if (clause.length <= TOPIC_CLAUSE_MAX && meaningful(clause)) return clause;
  return (wordsWithin(rest, TOPIC_WORDS_MAX) ?? rest.slice(0, PLAQUE_TOPIC_MAX)).trim();
}

/** The first sentence of `text` as plain words, or '' when it has none. */
function firstSentence(text: string): string {
  const sentence = splitSentences(text)[0]?.text ?? '';
  return inlineText(sentence);
}

/**
 * The rule's ladder without a model (C32): the first sentence, as plain text, the takeaway; the first sentences,
 * verbatim, the abstract. An answer with no sentence (code alone) and the offline receipt's answer (`receipt`:
 * the same preamble every time) take the question's first sentence instead, so a plaque says what was asked.
 */
export function ruleLadder(
  question: string,
  answer: string,
  options: { receipt?: boolean } = {},
): CheckedLadder | null {
  const sentences = splitSentences(answer);
  const said = options.receipt ? '' : firstSentence(answer);
  // Plain words before fitting, so the takeaway reads as text and the topic cannot cut a `**…**` in two.
  const takeaway = wholeTakeaway(said || firstSentence(question));
  const topic = ruleTopic(takeaway);
  if (!takeaway || !topic) return null;
  const { least } = abstractSizeFor(sentences.length);
  const picked = sentences.slice(0, least);
  return {
    topic,
    takeaway,
    reason: '',
    sentences: picked.map((sentence) => sentence.number),
    abstract: picked.map((sentence) => sentence.text),
  };
}

/** A plaque from a checked ladder: a model's (`model` set) or the rule's (then `refusal` says why, if a model was asked). */
export function plaqueFrom(
  ladder: CheckedLadder,
  writer: { model: string | null; writtenAt: number; refusal?: PlaqueRefusal },
): Plaque {
  const plaque: Plaque = {
    ...ladder,
    source: writer.model ? 'model' : 'rule',
    model: writer.model,
    writtenAt: writer.writtenAt,
  };
  if (!writer.model && writer.refusal) plaque.refusal = writer.refusal;
  return plaque;
}
