import type { LineOrigin, MemoryDocumentName } from '../../../protocol/index.ts';
import type { FactCategory } from './first-person.ts';

/** Which path proposed a fact: the memory judge, or the rule path used without one. */
export type ProposalPath = 'judge' | 'rule';

/** A fact a judge (or the rule path) proposes from one exchange, before the constitution rules on it. */
export interface CandidateFact {
  /** One sentence about the person. */
  text: string;
  category: FactCategory;
  /** A verbatim span of the person's words the fact rests on. */
  span: string;
  /** True when the person said it outright; false when it was read between the lines (evidence `inferred`). */
  stated: boolean;
  /** The current line this fact refines or contradicts, if the proposer names one. */
  updates: string | null;
  path: ProposalPath;
}

/** A fact the constitution admitted: ready to be merged into its document (or filed to a dossier for `project`). */
export interface AdmittedFact {
  text: string;
  category: FactCategory;
  /** Null for a project fact: it belongs to a dossier, not the profile. */
  document: MemoryDocumentName | null;
  evidence: 'stated' | 'inferred';
  span: string;
  origin: LineOrigin;
  updates: string | null;
  path: ProposalPath;
}
