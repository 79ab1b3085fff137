// runtime/topics: the topic table on disk and the labelling run the person starts (C15).
export { TopicStore, TOPICS_JOURNAL_HEAD_ID } from './topic-store.ts';
export type { StoredTopics, TopicStoreOptions } from './topic-store.ts';
export { sessionTurns, canvasTurns, MAX_LABEL_TURNS } from './label-turns.ts';
export { runLabelling, LabelJobRunner, idleJob } from './label-job.ts';
export type { LabelDecider, LabelRunOptions } from './label-job.ts';
export { judgeRequestTokens } from './judge-request-tokens.ts';
export { labelledTurns } from './labelled-turns.ts';
export type { LabelledTurnSources } from './labelled-turns.ts';
