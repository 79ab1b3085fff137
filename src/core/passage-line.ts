import type { Passage, QuestionNode } from '../../protocol/index.ts';

/** C30: the line a branched question carries before the person's own words. */
export function passageLine(passage: Passage): string {
  return `[Regarding this passage: "${passage.text}"]`;
}

/** The question as compiled: the passage line, a blank line, then the question. */
export function questionWithPassage(node: Pick<QuestionNode, 'passage' | 'question'>): string {
  return node.passage ? `${passageLine(node.passage)}\n\n${node.question}` : node.question;
}
