import {
  type KnownAs,
  RECALL_CEILING_TOKENS,
  type RecallCeiling,
  type RecallItem,
  type RecallOmission,
  type RecallOmissionReason,
  type RecallSource,
} from '../../../protocol/index.ts';
import type { HashPort } from '../hash-port.ts';
import { readingTakes } from '../memory/known-as.ts';
import { sha256Hex } from '../hashing.ts';
import {
  dossierPart,
  EXCERPT_ANSWER_CHARS,
  EXCERPT_QUESTION_CHARS,
  excerptPart,
  opening,
  recallHeader,
} from './recall-block.ts';
import type { RecallCandidate, RecallDossier } from './recall-inputs.ts';
import { insideProject } from './recall-scope.ts';
import { matchedTerms } from './recall-terms.ts';
import { redactCredentials } from './redact-credentials.ts';

/** Characters past an excerpt's cut that are still redacted, so a key the cut splits is still recognised. */
const REDACT_MARGIN = 200;
/** No part (its source line alone) is smaller than this many tokens. */
const MIN_PART_TOKENS = 12;

/** At most this many dossiers ride one ask (C16). */
export const MAX_RECALL_DOSSIERS = 2;

export interface RecallScopeInput {
  /**
   * The active canvas. Without `chain` none of its turns come back; with it, only the chain's stay out (they are
   * already in the ask) and its other turns are in scope whatever the working directory.
   */
  canvasId: string;
  /** Keys of the asked node and its ancestors on the active canvas (`canvas:<canvas>#<node>`). */
  chain?: ReadonlySet<string>;
  /** The canvas's working directory, or null when it has none (then only the global switch reaches anything). */
  project: string | null;
  global: boolean;
  /** Item ids the person struck on the node. */
  struck: readonly string[];
  /** Whether a turn key's source is archived or deleted on its canvas (such a turn never comes back). */
  archived: (key: string) => boolean;
  /**
   * Issue 29.2: whether a turn key's content is put aside (a tombstone on its words), or a dossier sentence's own
   * text is; such an item is left out as `put-aside`. Absent: nothing is put aside.
   */
  putAside?: (key: string) => boolean;
  putAsideSentence?: (text: string) => boolean;
  /**
   * #29: the node's inferred switch. Dossiers (a model's summary, `inferred`) enter only with it on, marked; left
   * out as `inferred` otherwise. Turns (`observed`, or `reconstructed` and marked) are read either way.
   */
  includeInferred?: boolean;
  /**
   * #29.4: the node's "as of" date. A turn from after it (or of no known time) is left out as `after-as-of`: a node
   * dated D is answered from what was known by D. The block's header names it. Absent: now.
   */
  asOf?: number | null;
}

export interface RecallPlanInput extends RecallScopeInput {
  question: string;
  terms: readonly string[];
  candidates: readonly RecallCandidate[];
  /** Dossiers of the question's topics, in the topic table's order. */
  dossiers: readonly RecallDossier[];
  /** The folder a cited turn was asked in (null when unknown): a dossier sentence is scoped by its citations. */
  citedFolder: (key: string) => string | null;
  /** #29: how a cited turn is known (absent: every citation `observed`); a sentence names its reconstructed ones. */
  citedKnownAs?: (key: string) => KnownAs;
  ceiling: RecallCeiling;
  contextWindow: number;
  estimateTokens: (text: string) => number;
  /** The judge's relevance (0…1) of the candidates it read; absent without a judge. */
  relevance?: ReadonlyMap<string, number>;
  /** `eligibleCandidates` of these same inputs, when the caller already has it (it costs a pass over every text). */
  ranked?: { eligible: RankedCandidate[]; omitted: RecallOmission[] };
  hash?: HashPort;
}

export interface RecallPlan {
  terms: string[];
  block: string | null;
  blockHash: string | null;
  items: RecallItem[];
  omitted: RecallOmission[];
  ceilingTokens: number;
  usedTokens: number;
}

/** The smaller of the chosen ceiling and two fifths of the model's context window. */
export function recallCeilingTokens(ceiling: RecallCeiling, contextWindow: number): number {
  return Math.max(0, Math.min(RECALL_CEILING_TOKENS[ceiling], Math.floor((contextWindow * 2) / 5)));
}

function sourceOf(candidate: RecallCandidate): RecallSource {
  return {
    id: candidate.key,
    kind: candidate.kind,
    runner: candidate.runner,
    sessionId: candidate.sessionId,
    sessionTitle: candidate.sessionTitle,
    turn: candidate.turn,
    at: candidate.at,
    topic: null,
    // #29: only a turn known otherwise than as written says so (so items from before #29 read the same).
    ...(candidate.knownAs && candidate.knownAs !== 'observed' ? { knownAs: candidate.knownAs } : {}),
    ...(candidate.completeness ? { completeness: candidate.completeness } : {}),
  };
}

function dossierSource(dossier: RecallDossier, id = `dossier:${dossier.topicId}`): RecallSource {
  return {
    id,
    kind: 'dossier',
    runner: null,
    sessionId: null,
    sessionTitle: dossier.topicName,
    turn: null,
    at: dossier.writtenAt,
    topic: dossier.topicName,
    // #29: a dossier is a model's summary of the turns it cites.
    knownAs: 'inferred',
  };
}

const DAY_MS = 86_400_000;

export interface RankedCandidate {
  candidate: RecallCandidate;
  matched: string[];
}

/** How many of the question's signals a candidate holds: its matched terms, and one for a topic label. */
function coverage(ranked: RankedCandidate): number {
  return ranked.matched.length + (ranked.candidate.topical ? 1 : 0);
}

/**
 * The candidates recall may use, best first, and those left out of scope, archived or struck (with reasons).
 * Ranked by coverage (matched terms, a topic label), a topic label first among equals, then the judge's relevance
 * (when one read them), the index's bm25 relevance, the day (newest first), time and key, so the order never depends
 * on the order the index returned them in. The judge reads only from `eligible`. The active canvas's chain is no
 * candidate at all.
 */
export function eligibleCandidates(
  input: RecallScopeInput & {
    terms: readonly string[];
    candidates: readonly RecallCandidate[];
    relevance?: ReadonlyMap<string, number>;
  },
): { eligible: RankedCandidate[]; omitted: RecallOmission[] } {
  const struck = new Set(input.struck);
  const omitted: RecallOmission[] = [];
  const eligible: RankedCandidate[] = [];
  const seen = new Set<string>();
  const omit = (candidate: RecallCandidate, reason: RecallOmissionReason) =>
    omitted.push({ ...sourceOf(candidate), reason });
  for (const candidate of [...input.candidates].sort((left, right) => compareText(left.key, right.key))) {
    if (seen.has(candidate.key)) continue;
    seen.add(candidate.key);
    const ownCanvas = candidate.canvasId !== null && candidate.canvasId === input.canvasId;
    // Already in the ask as its context: neither recalled nor "left out".
    if (ownCanvas && input.chain?.has(candidate.key)) continue;
    const inScope = ownCanvas
      ? input.chain !== undefined
      : input.global || (input.project !== null && insideProject(candidate.cwd, input.project));
    const asOf = input.asOf ?? null;
    if (!inScope) omit(candidate, 'out-of-scope');
    else if (asOf !== null && (candidate.at === null || candidate.at > asOf)) omit(candidate, 'after-as-of');
    else if (input.putAside?.(candidate.key)) omit(candidate, 'put-aside');
    else if (input.archived(candidate.key)) omit(candidate, 'archived-source');
    else if (struck.has(candidate.key)) omit(candidate, 'struck');
    else eligible.push({ candidate, matched: matchedTerms(`${candidate.question}\n${candidate.answer}`, input.terms) });
  }
  const relevance = input.relevance;
  eligible.sort(
    (left, right) =>
      coverage(right) - coverage(left) ||
      Number(right.candidate.topical === true) - Number(left.candidate.topical === true) ||
      (relevance ? (relevance.get(right.candidate.key) ?? 0) - (relevance.get(left.candidate.key) ?? 0) : 0) ||
      (right.candidate.score ?? 0) - (left.candidate.score ?? 0) ||
      Math.floor((right.candidate.at ?? -DAY_MS) / DAY_MS) - Math.floor((left.candidate.at ?? -DAY_MS) / DAY_MS) ||
      (right.candidate.at ?? -1) - (left.candidate.at ?? -1) ||
      compareText(left.candidate.key, right.candidate.key),
  );
  return { eligible, omitted };
}

/** Why a dossier sentence leaves recall, or null when it stays (a sentence citing nothing stays). */
function sentenceLeftOut(
  citations: readonly string[],
  input: Pick<RecallPlanInput, 'archived' | 'putAside' | 'global' | 'project' | 'citedFolder'>,
): RecallOmissionReason | null {
  if (citations.length === 0) return null;
  const live = citations.filter((key) => !input.archived(key));
  if (live.length === 0) return citations.every((key) => input.putAside?.(key)) ? 'put-aside' : 'archived-source';
  if (input.global) return null;
  const project = input.project;
  return project !== null && live.some((key) => insideProject(input.citedFolder(key), project)) ? null : 'out-of-scope';
}

/** How each citation is known, for the ones not read as written. */
function citationKnownAs(
  citations: readonly string[],
  citedKnownAs: (key: string) => KnownAs,
): Record<string, KnownAs> {
  const known: Record<string, KnownAs> = {};
  for (const key of citations) {
    const knownAs = citedKnownAs(key);
    if (knownAs !== 'observed') known[key] = knownAs;
  }
  return known;
}

/** Code-point order, the same on every platform and locale. */
function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Whitespace-folded text, to recognise the same excerpt reached twice (a session turn and its canvas copy). */
function sameText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

interface Part {
  source: RecallSource;
  matched: string[];
  redactions: () => number;
  /** Renders the part once its label is known (labels follow the final order). */
  render: (label: string) => string;
  prefix: 'D' | 'R';
}

/**
 * C16: the recall block for one ask — at most two dossiers of the question's topics, then verbatim excerpts of
 * past turns in rank order, within the ceiling — and every candidate left out with its reason. Pure and
 * deterministic: the same inputs give the same block bytes. Credential-like strings are redacted before any
 * text enters the block.
 */
export function planRecall(input: RecallPlanInput): RecallPlan {
  const ceilingTokens = recallCeilingTokens(input.ceiling, input.contextWindow);
  const struck = new Set(input.struck);
  const omitted: RecallOmission[] = [];
  const parts: Part[] = [];

  let dossiersTaken = 0;
  const dossierIds = new Set<string>();
  for (const dossier of input.dossiers) {
    const id = `dossier:${dossier.topicId}`;
    if (dossierIds.has(id)) continue;
    dossierIds.add(id);
    if (struck.has(id)) {
      omitted.push({ ...dossierSource(dossier), reason: 'struck' });
      continue;
    }
    if (!readingTakes('inferred', { includeInferred: input.includeInferred === true })) {
      omitted.push({ ...dossierSource(dossier), reason: 'inferred' });
      continue;
    }
    // A sentence whose sources are all archived or deleted leaves recall, and so does one (outside the global
    // switch) whose sources were all asked outside the project; the dossier's other sentences stay.
    const left: RecallOmissionReason[] = [];
    const sentences = dossier.sentences.filter((sentence) => {
      const reason = input.putAsideSentence?.(sentence.text) ? 'put-aside' : sentenceLeftOut(sentence.citations, input);
      if (reason) {
        left.push(reason);
        omitted.push({ ...dossierSource(dossier, `${id}#${sentence.id}`), reason });
      }
      return reason === null;
    });
    if (sentences.length === 0) {
      omitted.push({
        ...dossierSource(dossier),
        reason: left.includes('out-of-scope')
          ? 'out-of-scope'
          : left.every((why) => why === 'put-aside')
            ? 'put-aside'
            : 'archived-source',
      });
      continue;
    }
    if (dossiersTaken >= MAX_RECALL_DOSSIERS) {
      omitted.push({ ...dossierSource(dossier), reason: 'budget' });
      continue;
    }
    dossiersTaken += 1;
    const redacted = sentences.map((sentence) => ({
      ...sentence,
      text: redactCredentials(sentence.text),
      ...(input.citedKnownAs && { citationKnownAs: citationKnownAs(sentence.citations, input.citedKnownAs) }),
    }));
    parts.push({
      source: dossierSource(dossier),
      matched: matchedTerms(sentences.map((sentence) => sentence.text).join('\n'), input.terms),
      redactions: () => redacted.reduce((sum, sentence) => sum + sentence.text.redactions, 0),
      render: (label) =>
        dossierPart(
          label,
          dossier,
          redacted.map((sentence) => ({ ...sentence, text: sentence.text.text })),
        ),
      prefix: 'D',
    });
  }

  const { eligible, omitted: ineligible } = input.ranked ?? eligibleCandidates({ ...input });
  omitted.push(...ineligible);
  const keptKeys = new Set<string>();
  const keptTexts = new Set<string>();
  const excerpts: Part[] = [];
  for (const { candidate, matched } of eligible) {
    // Only the openings can enter the block; a margin past the cut keeps a key across it recognisable.
    const rawQuestion =
      candidate.kind === 'memory' ? '' : candidate.question.slice(0, EXCERPT_QUESTION_CHARS + REDACT_MARGIN);
    const rawAnswer = candidate.answer.slice(0, EXCERPT_ANSWER_CHARS + REDACT_MARGIN);
    const text = sameText(`${rawQuestion}\n${rawAnswer}`);
    // A session turn and its canvas copy are one piece of work, whichever ranks first.
    const copyOfKept = candidate.mirrors !== null && keptKeys.has(candidate.mirrors);
    if (copyOfKept || keptKeys.has(candidate.key) || keptTexts.has(text)) {
      omitted.push({ ...sourceOf(candidate), reason: 'duplicate' });
      continue;
    }
    keptKeys.add(candidate.key);
    if (candidate.mirrors !== null) keptKeys.add(candidate.mirrors);
    keptTexts.add(text);
    let redacted: { question: string; answer: string; redactions: number } | null = null;
    // Redacted before it is cut (so a key across the cut cannot survive half-matched), and only when rendered.
    const redact = () => {
      if (!redacted) {
        const question = redactCredentials(rawQuestion);
        const answer = redactCredentials(rawAnswer);
        redacted = {
          question: opening(question.text, EXCERPT_QUESTION_CHARS),
          answer: opening(answer.text, EXCERPT_ANSWER_CHARS),
          redactions: question.redactions + answer.redactions,
        };
      }
      return redacted;
    };
    excerpts.push({
      source: sourceOf(candidate),
      matched,
      redactions: () => redact().redactions,
      render: (label) => excerptPart(label, candidate, redact().question, redact().answer),
      prefix: 'R',
    });
  }

  const header = recallHeader(input.terms, input.asOf ?? null);
  const chosen: { part: Part; text: string; tokens: number }[] = [];
  let used = input.estimateTokens(header);
  const counters = { D: 0, R: 0 };
  for (const part of [...parts, ...excerpts]) {
    // Full (no part is this small): the rest are over the budget without rendering them.
    if (ceilingTokens - used < MIN_PART_TOKENS) {
      omitted.push({ ...part.source, reason: 'budget' });
      continue;
    }
    const label = `${part.prefix}${counters[part.prefix] + 1}`;
    const text = part.render(label);
    const tokens = input.estimateTokens(`\n\n${text}`);
    if (used + tokens > ceilingTokens) {
      omitted.push({ ...part.source, reason: 'budget' });
      continue;
    }
    counters[part.prefix] += 1;
    used += tokens;
    chosen.push({ part, text, tokens });
  }
  // Token counts of pieces need not add up to the whole's: the assembled block is checked and trimmed from the end.
  let block = chosen.length > 0 ? [header, ...chosen.map((entry) => entry.text)].join('\n\n') : null;
  while (block !== null && input.estimateTokens(block) > ceilingTokens) {
    const dropped = chosen.pop()!;
    omitted.push({ ...dropped.part.source, reason: 'budget' });
    block = chosen.length > 0 ? [header, ...chosen.map((entry) => entry.text)].join('\n\n') : null;
  }
  const items: RecallItem[] = chosen.map(({ part, text, tokens }) => ({
    ...part.source,
    label: /^\[([DR]\d+) /.exec(text)![1]!,
    matchedTerms: part.matched,
    tokens,
    redactions: part.redactions(),
  }));
  return {
    terms: [...input.terms],
    block,
    blockHash: block === null ? null : sha256Hex(block, input.hash),
    items,
    omitted,
    ceilingTokens,
    usedTokens: block === null ? 0 : input.estimateTokens(block),
  };
}
