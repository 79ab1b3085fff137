// src/core/dossiers: one cited document per topic (C15). Pure: time and ids injected.
export * from './live-sentences.ts';
export * from './dossier-prompt.ts';
export * from './dossier-answer.ts';
export * from './fact-consumption.ts';
export * from './dossier-plan.ts';
export * from './struck-sentences.ts';
export * from './new-sentences.ts';
export * from './sentence-validity.ts';
