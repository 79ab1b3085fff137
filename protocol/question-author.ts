import type { QuestionAuthor, QuestionNode, Version } from './canvas-document.ts';

/**
 * Question texts Weft wrote before questions recorded an author, frozen as they were: merge's synthesis question,
 * condense's conclusion question and the demo canvas's questions.
 */
export const LEGACY_APP_QUESTIONS: ReadonlySet<string> = new Set([
  'Synthesize the answers above into one account: where they agree, where they differ, and what follows from them.',
  'State the conclusion this line of inquiry reaches, in a few sentences, with the reasons it rests on.',
  'How much more is blue light scattered than red, and why?',
  'Then why is the daytime sky blue rather than violet?',
  'Why does the sky turn red and orange at sunset?',
  'Is the sky blue because it reflects the ocean? (archived: a wrong premise, so the compiler skips it)',
  'What is Mie scattering?',
  'Why are clouds white, then?',
  'What colour is pure water itself?',
  'Does the sea look blue for the same reason?',
]);

/** The rule fan-out's four angles, which wrap the person's words in Weft's. */
const LEGACY_RULE_ANGLE =
  /^What (?:exactly is meant by|evidence bears on|are the main alternatives to consider for|follows if we answer): /;

/** Who wrote a question text that carries no author: `app` for a text Weft wrote before authors were recorded. */
function legacyAuthor(text: string): QuestionAuthor {
  return LEGACY_APP_QUESTIONS.has(text) || LEGACY_RULE_ANGLE.test(text) ? 'app' : 'person';
}

/**
 * Who wrote a question node's current text: its `questionAuthor`, or for a node from before authorship was
 * recorded, `app` when its text is one Weft wrote and `person` otherwise. A fan-out sub-question a model proposed
 * before this field cannot be told from the person's own and counts as theirs (the one gap of the rule); erring
 * towards `app` only ever keeps words out of memory.
 */
export function questionAuthor(node: Pick<QuestionNode, 'question' | 'questionAuthor'>): QuestionAuthor {
  return node.questionAuthor ?? legacyAuthor(node.question);
}

/**
 * Who wrote the question a version asked (C14): the author frozen on the version when it was written; for a
 * version from before that, the node's author while the node still asks the same text, else the legacy rule on
 * the version's own text.
 */
export function versionQuestionAuthor(
  node: Pick<QuestionNode, 'question' | 'questionAuthor'>,
  version: Pick<Version, 'question' | 'questionAuthor'>,
): QuestionAuthor {
  if (version.questionAuthor) return version.questionAuthor;
  return version.question === node.question ? questionAuthor(node) : legacyAuthor(version.question);
}
