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
const TOPIC_WORDS = 3;

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > limit / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A few words copied from inside the takeaway, skipping its opening filler (so it always occurs there). */
export function ruleTopic(takeaway: string): string {
  const words = [...takeaway.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)];
  let first = words.findIndex((word) => !OPENING_WORDS.has(word[0].toLowerCase()));
  if (first < 0) first = 0;
  const chosen = words.slice(first, first + TOPIC_WORDS);
  if (chosen.length === 0) return '';
  const start = chosen[0]!.index;
  let end = chosen[chosen.length - 1]!.index + chosen[chosen.length - 1]![0].length;
  while (end - start > PLAQUE_TOPIC_MAX && chosen.length > 1) {
    chosen.pop();
    end = chosen[chosen.length - 1]!.index + chosen[chosen.length - 1]![0].length;
  }
  return takeaway.slice(start, Math.min(end, start + PLAQUE_TOPIC_MAX));
}

/**
 * The rule's ladder without a model (C32): the first sentence, as plain text, the takeaway; the first sentences,
 * verbatim, the abstract.
 */
export function ruleLadder(question: string, answer: string): CheckedLadder | null {
  const sentences = splitSentences(answer);
  const first = sentences[0]?.text ?? question.trim().split('\n')[0]?.trim() ?? '';
  // Plain words before clipping, so the takeaway reads as text and the topic cannot cut a `**…**` in two.
  const takeaway = clip(inlineText(first), PLAQUE_TAKEAWAY_MAX);
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
