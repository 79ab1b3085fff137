// Recall into an ask (C16): terms, scope, ranking and the budgeted, explainable block. Pure.
export { recallTerms, matchedTerms, recallStem, recallForms, MAX_RECALL_TERMS } from './recall-terms.ts';
export type { RecallTerms } from './recall-terms.ts';
export { editDistance } from './edit-distance.ts';
export { redactCredentials } from './redact-credentials.ts';
export { insideProject } from './recall-scope.ts';
export {
  reachCount,
  reachRequests,
  REACH_CANDIDATES,
  CANDIDATES_PER_REQUEST,
  JUDGE_OPENING_CHARS,
} from './recall-reach.ts';
export { planRecall, eligibleCandidates, recallCeilingTokens, MAX_RECALL_DOSSIERS } from './plan-recall.ts';
export type { RecallPlan, RecallPlanInput, RecallScopeInput, RankedCandidate } from './plan-recall.ts';
export { recallHeader, opening, EXCERPT_QUESTION_CHARS, EXCERPT_ANSWER_CHARS } from './recall-block.ts';
export type {
  RecallCandidate,
  RecallDossier,
  RecallDossierSentence,
  DossierSource,
  RecallVocabulary,
} from './recall-inputs.ts';
export { recallRequestFor, FALLBACK_CONTEXT_WINDOW } from './recall-request.ts';
export { turnKnownAs } from './turn-known-as.ts';
export type { TurnKnowledge } from './turn-known-as.ts';
