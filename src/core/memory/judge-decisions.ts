import type { DecideRequest, MemoryProfile } from '../../../protocol/index.ts';
import type { CandidateFact } from './candidate-fact.ts';
import type { Exchange } from './exchange.ts';
import { MIN_SPAN_WORDS } from './find-evidence.ts';
import type { FactCategory } from './first-person.ts';
import { words } from './normalise-text.ts';
import { currentLines, documentFor } from './profile.ts';
import { sentencesOf } from './rule-decide.ts';

/**
 * The memory judge on the decision model (C13): for each sentence of the person's own words, four typed
 * decisions, each answered with probabilities. The judge never writes a fact's words: a candidate's text and span
 * are the person's sentence, so what reaches the constitution is their words by construction.
 *
 * Cut-offs (a change moves the golden set and fails the suite):
 * - `durable`: P(durable) ≥ DURABLE_CUTOFF (0.6), else the sentence says nothing lasting about the person.
 * - `category`: the most probable of preference / identity / project, and only when it is ≥ CATEGORY_CUTOFF (0.5).
 * - `stated`: P(stated) ≥ STATED_CUTOFF (0.5) gives evidence `stated`, else `inferred`.
 * - `covers`: the current line of the fact's document with P ≥ COVERS_CUTOFF (0.6) is the line the fact refines
 *   or contradicts (the merge replaces it); `none` or nothing above the cut-off adds a line.
 */
export const DURABLE_CUTOFF = 0.6;
export const CATEGORY_CUTOFF = 0.5;
export const STATED_CUTOFF = 0.5;
export const COVERS_CUTOFF = 0.6;

/** At most this many sentences are judged per exchange: a pasted essay does not cost a hundred judge calls. */
export const MAX_JUDGED_SENTENCES = 8;
const MAX_SENTENCE = 240;
const MAX_CONTEXT = 4000;

export type JudgeDecisionKind = 'memory-durable' | 'memory-category' | 'memory-stated' | 'memory-covers';

/** The sentences of the person's own words the judge is asked about (statements, not questions). */
export function judgedSentences(exchange: Exchange): string[] {
  const sentences: string[] = [];
  for (const text of exchange.person)
    for (const sentence of sentencesOf(text.text)) {
      if (sentence.endsWith('?') || sentence.length > MAX_SENTENCE) continue;
      if (words(sentence).length < MIN_SPAN_WORDS || sentences.includes(sentence)) continue;
      sentences.push(sentence);
    }
  return sentences.slice(0, MAX_JUDGED_SENTENCES);
}

function clip(text: string): string {
  return text.length > MAX_CONTEXT ? `${text.slice(0, MAX_CONTEXT)}…` : text;
}

/** What the judge reads: the person's words, the answer as context only, the sentence in question. */
function exchangeText(exchange: Exchange, sentence: string): string {
  const person = exchange.person.map((text) => `[The person's ${text.kind}]\n${clip(text.text)}`).join('\n\n');
  const answer = exchange.other.find((text) => text.kind === 'answer');
  return [
    person,
    answer ? `[The model's answer — context only, never a fact about the person]\n${clip(answer.text)}` : null,
    `[Sentence]\n${sentence}`,
  ]
    .filter((part) => part !== null)
    .join('\n\n');
}

export function durableRequest(exchange: Exchange, sentence: string): DecideRequest {
  return {
    kind: 'memory-durable',
    prompt: `${exchangeText(exchange, sentence)}\n\nDoes the sentence, in the person's own words, say something durable about the person (a lasting preference, who they are, or their project) worth remembering in later conversations? "durable" if so, "passing" for a one-off request, a question, or something about someone else.`,
    options: ['durable', 'passing'],
  };
}

export function categoryRequest(exchange: Exchange, sentence: string): DecideRequest {
  return {
    kind: 'memory-category',
    prompt: `${exchangeText(exchange, sentence)}\n\nWhat kind of fact about the person does the sentence state? "preference" (how they like things done), "identity" (who they are: name, work, place), "project" (what they are building or working on).`,
    options: ['preference', 'identity', 'project'],
  };
}

export function statedRequest(exchange: Exchange, sentence: string): DecideRequest {
  return {
    kind: 'memory-stated',
    prompt: `${exchangeText(exchange, sentence)}\n\nDid the person state this fact about themselves outright ("stated"), or is it only implied by what they wrote ("implied")?`,
    options: ['stated', 'implied'],
  };
}

/** Null when the fact's document has no current line (nothing to cover). */
export function coversRequest(
  exchange: Exchange,
  sentence: string,
  profile: MemoryProfile,
  category: FactCategory,
): DecideRequest | null {
  const document = documentFor(category);
  const lines = document ? currentLines(profile, document).slice(0, 40) : [];
  if (lines.length === 0) return null;
  const listed = lines.map((line) => `${line.id}: ${line.text}`).join('\n');
  return {
    kind: 'memory-covers',
    prompt: `${exchangeText(exchange, sentence)}\n\n[Current lines of the ${document} document]\n${listed}\n\nDoes the sentence refine or contradict one of these lines (answer with that line's id), or is it new ("none")?`,
    options: ['none', ...lines.map((line) => line.id)],
  };
}

/** The probabilities the judge gave one sentence; a decision it was not asked is absent. */
export interface SentenceJudgement {
  durable: Record<string, number>;
  category?: Record<string, number>;
  stated?: Record<string, number>;
  covers?: Record<string, number> | null;
}

/** True when the judge's `durable` answer keeps the sentence (so the other decisions are worth asking). */
export function isDurable(durable: Record<string, number>): boolean {
  return (durable.durable ?? 0) >= DURABLE_CUTOFF;
}

/** The category above its cut-off, or null. */
export function pickCategory(category: Record<string, number>): FactCategory | null {
  let best: FactCategory | null = null;
  let bestP = -1;
  for (const option of ['preference', 'identity', 'project'] as const) {
    const p = category[option] ?? 0;
    if (p > bestP) [best, bestP] = [option, p];
  }
  return bestP >= CATEGORY_CUTOFF ? best : null;
}

/** The line the fact refines or contradicts, or null to add a line. */
export function pickCovered(covers: Record<string, number> | null | undefined): string | null {
  if (!covers) return null;
  let best: string | null = null;
  let bestP = COVERS_CUTOFF;
  for (const [option, p] of Object.entries(covers)) if (option !== 'none' && p >= bestP) [best, bestP] = [option, p];
  return best;
}

/** The candidate the judge's answers make of one sentence, or null when it is not kept. */
export function candidateFromJudgement(sentence: string, judgement: SentenceJudgement): CandidateFact | null {
  if (!isDurable(judgement.durable) || !judgement.category) return null;
  const category = pickCategory(judgement.category);
  if (category === null) return null;
  const stated = (judgement.stated?.stated ?? 0) >= STATED_CUTOFF;
  return { text: sentence, category, span: sentence, stated, updates: pickCovered(judgement.covers), path: 'judge' };
}
