// Recall into an ask (C16) over the why index, the canvas records, topics and dossiers.
export { planRecallFromIndex, NO_DOSSIERS, SECONDS_PER_JUDGE_REQUEST } from './plan-from-index.ts';
export type { RecallSources } from './plan-from-index.ts';
export { indexCandidates, IN_SCOPE_HITS_PER_TERM, OUT_OF_SCOPE_HITS_PER_TERM } from './index-candidates.ts';
export { indexVocabulary } from './index-vocabulary.ts';
export { judgeRelevance, relevancePrompt, judgeOpening, RelevanceMemo } from './judge-relevance.ts';
export type { RelevanceJudge } from './judge-relevance.ts';
export { storedDossiers } from './stored-dossiers.ts';
export { readRecallSources } from './recall-sources.ts';
export { checkRecallScope } from './recall-scope.ts';
export type { RecallStores } from './recall-sources.ts';
