import { describe, expect, it } from 'vitest';
import { LEGACY_APP_QUESTIONS, questionAuthor, versionQuestionAuthor } from './question-author.ts';

const synthesis = [...LEGACY_APP_QUESTIONS][0]!;

/** The rule for documents from before questions recorded an author (no format bump). */
describe('questionAuthor on older documents', () => {
  it('reads the recorded author first', () => {
    expect(questionAuthor({ question: 'I prefer tabs.', questionAuthor: 'model' })).toBe('model');
    expect(questionAuthor({ question: synthesis, questionAuthor: 'person' })).toBe('person');
  });

  it('without one: Weft’s own texts (synthesis, conclusion, demo, rule angles) are Weft’s, anything else the person’s', () => {
    expect(questionAuthor({ question: synthesis })).toBe('app');
    expect(questionAuthor({ question: 'What evidence bears on: I live in Leeds?' })).toBe('app');
    expect(questionAuthor({ question: 'I live in Leeds, what evidence bears on that?' })).toBe('person');
  });

  it('a version without a frozen author takes the node’s while the node asks the same text, else the rule', () => {
    const node = { question: 'What is a tide?', questionAuthor: 'model' as const };
    expect(versionQuestionAuthor(node, { question: 'What is a tide?' })).toBe('model');
    expect(versionQuestionAuthor(node, { question: synthesis })).toBe('app');
    expect(versionQuestionAuthor(node, { question: 'An older text.' })).toBe('person');
    expect(versionQuestionAuthor(node, { question: 'What is a tide?', questionAuthor: 'person' })).toBe('person');
  });
});
