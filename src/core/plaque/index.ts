// C32 plaque summaries: display-only takeaway ladders.
export { splitSentences } from './split-sentences.ts';
export type { AnswerSentence } from './split-sentences.ts';
export { validateLadder, readLadderJson, abstractSizeFor } from './validate-ladder.ts';
export type { CheckedLadder, LadderRefusal } from './validate-ladder.ts';
export { ruleLadder, ruleTopic, plaqueFrom } from './rule-plaque.ts';
export { plaqueThread, currentPlaque, threadLine, PLAQUE_THREAD_TOKENS } from './plaque-thread.ts';
export { applyPlaqueChange } from './plaque-change.ts';
export type { SetPlaqueChange } from './plaque-change.ts';
export { ruleGrade, modelGrade, gradedPlaque, plaqueGrade } from './plaque-grade.ts';
export type { PlaqueGrade } from './plaque-grade.ts';
