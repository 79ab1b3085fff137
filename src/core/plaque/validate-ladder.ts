import {
  PLAQUE_REASON_MAX,
  PLAQUE_TAKEAWAY_MAX,
  PLAQUE_TOPIC_MAX,
  type PlaqueRefusal,
} from '../../../protocol/index.ts';
import { failure, success, type Result } from '../result.ts';
import type { AnswerSentence } from './split-sentences.ts';

/** A ladder that passed: what a plaque takes from a model. */
export interface CheckedLadder {
  topic: string;
  takeaway: string;
  reason: string;
  sentences: number[];
  abstract: string[];
}

export interface LadderRefusal {
  code: PlaqueRefusal;
  message: string;
}

interface LadderShape {
  topic: string;
  takeaway: string;
  reason: string;
  sentences: number[];
}

/** The ladder's fields by hand (core takes no schema library): strings, and whole sentence numbers. */
function ladderShape(raw: unknown): LadderShape | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { topic, takeaway, reason = '', sentences } = raw as Record<string, unknown>;
  if (typeof topic !== 'string' || typeof takeaway !== 'string' || typeof reason !== 'string') return null;
  if (!Array.isArray(sentences) || !sentences.every((number) => Number.isInteger(number))) return null;
  return { topic, takeaway, reason, sentences: sentences as number[] };
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** How many sentences an abstract holds: three or four, or all of a shorter answer's. */
export function abstractSizeFor(sentenceCount: number): { least: number; most: number } {
  return { least: Math.min(3, sentenceCount), most: Math.min(4, sentenceCount) };
}

/** The JSON object in a model's text (code fences and prose around it tolerated), or null. */
export function readLadderJson(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return null;
  }
}

/**
 * Checks a model's ladder against the answer it summarises (C32): the topic is copied from inside the takeaway,
 * the sentence numbers name three or four distinct sentences of the answer, whose verbatim text becomes the
 * abstract (in answer order). Anything else is refused with a code, and the caller takes the rule fallback.
 */
export function validateLadder(
  raw: unknown,
  sentences: readonly AnswerSentence[],
): Result<CheckedLadder, LadderRefusal> {
  const shape = ladderShape(raw);
  if (!shape)
    return failure({ code: 'unreadable', message: 'The ladder is not {topic, takeaway, reason, sentences}.' });
  const topic = collapse(shape.topic);
  const takeaway = collapse(shape.takeaway);
  const reason = collapse(shape.reason).slice(0, PLAQUE_REASON_MAX);
  if (!topic || !takeaway) return failure({ code: 'unreadable', message: 'The topic or the takeaway is empty.' });
  if (topic.length > PLAQUE_TOPIC_MAX || takeaway.length > PLAQUE_TAKEAWAY_MAX)
    return failure({
      code: 'too-long',
      message: `A topic holds ${PLAQUE_TOPIC_MAX} characters and a takeaway ${PLAQUE_TAKEAWAY_MAX}.`,
    });
  if (!takeaway.toLowerCase().includes(topic.toLowerCase()))
    return failure({ code: 'topic-not-in-takeaway', message: `The topic “${topic}” is not inside the takeaway.` });
  const numbers = shape.sentences;
  const missing = numbers.find((number) => number < 1 || number > sentences.length);
  if (missing !== undefined)
    return failure({
      code: 'sentence-missing',
      message: `The answer has ${sentences.length} sentences; there is no sentence ${missing}.`,
    });
  if (new Set(numbers).size !== numbers.length)
    return failure({ code: 'sentence-repeated', message: 'A sentence is named twice.' });
  const { least, most } = abstractSizeFor(sentences.length);
  if (numbers.length < least || numbers.length > most)
    return failure({
      code: 'sentence-count',
      message: `The abstract takes ${least === most ? least : `${least} or ${most}`} sentences, not ${numbers.length}.`,
    });
  const ordered = [...numbers].sort((left, right) => left - right);
  return success({
    topic,
    takeaway,
    reason,
    sentences: ordered,
    abstract: ordered.map((number) => sentences[number - 1]!.text),
  });
}
