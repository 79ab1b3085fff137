// src/core/topics: the person's topic table and the labelling rules (C15). Pure: hashing, time and ids injected.
export * from './topic-table.ts';
export * from './match-topics.ts';
export * from './label-plan.ts';
export * from './label-removal.ts';
