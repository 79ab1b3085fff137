import type { Completeness, KnownAs } from '../../../protocol/index.ts';

/**
 * What the recall planner reads (C16), as ports and plain data so it stays pure: the runtime fills them from the
 * why index, the canvas records, the topic table and the dossier store.
 */

/** One past turn or memory file the index holds, verbatim. */
export interface RecallCandidate {
  /** Stable key: `<runner>:<session>#<turn>`, `canvas:<canvas>#<node>`, or a memory file's key. */
  key: string;
  kind: 'turn' | 'memory';
  /** `claude-code`, `codex`, `pi`, `canvas`, or the agent a memory file belongs to (null when unknown). */
  runner: string | null;
  /** The session id, or the canvas id for a canvas turn; null for a memory file. */
  sessionId: string | null;
  sessionTitle: string;
  turn: number | null;
  /** Where it was asked (a session's or turn's cwd, a canvas's working directory, a memory file's folder). */
  cwd: string | null;
  at: number | null;
  question: string;
  answer: string;
  /** Set when the candidate comes from a canvas record: the active canvas's own turns never come back. */
  canvasId: string | null;
  /** A canvas copy of a session turn: that turn's key (the two are one piece of work). */
  mirrors: string | null;
  /** The index's relevance of its text to the terms (FTS5 `bm25()`, negated: higher is better); absent, 0. */
  score?: number;
  /** Labelled with one of the question's topics: it counts as one more matched term. */
  topical?: boolean;
  /**
   * #29: how it is known: `observed` (read as written; the default when absent) or `reconstructed` (an interrupted
   * turn, a text cut at the index's cap), with `completeness` saying how it was cut short.
   */
  knownAs?: KnownAs;
  completeness?: Completeness | null;
}

/** One sentence of a dossier as recall sees it, with the turn keys it cites. */
export interface RecallDossierSentence {
  id: string;
  section: 'what' | 'decisions' | 'status' | 'open';
  text: string;
  citations: readonly string[];
  /** #29: how each cited turn is known, when it is not `observed` (absent: all read as written). */
  citationKnownAs?: Readonly<Record<string, KnownAs>>;
}

/** A topic's dossier (protocol/dossier.ts) with its topic's name. */
export interface RecallDossier {
  topicId: string;
  topicName: string;
  writtenAt: number;
  sentences: readonly RecallDossierSentence[];
}

/** The port recall asks for dossiers of the question's topics (the dossier store's adapter implements it). */
export interface DossierSource {
  /** `asOf` (#29.4): each dossier as it stood at that time (its newest version written by then); absent: now. */
  dossiersFor(topicIds: readonly string[], asOf?: number | null): readonly RecallDossier[];
}

/**
 * The index vocabulary terms are typo-corrected against: how many turns a word occurs in, and the known words
 * that could be a misspelling of it (the runtime narrows them, e.g. by their first letter and length).
 */
export interface RecallVocabulary {
  frequency(term: string): number;
  neighbours(term: string): readonly string[];
}
