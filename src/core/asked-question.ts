import type { QuestionNode } from '../../protocol/index.ts';
import { renderMentions } from './mention-text.ts';
import { questionWithPassage } from './passage-line.ts';
import { wellFormed } from './well-formed.ts';

/**
 * The question text a request carries when `node` is asked with `question` (its passage line first, mentions as
 * `@title`, well-formed): what compile sends last, so what the server's commit ledger hashes, and what memory hashes
 * a version's stored question with to find its commit (issue 27.3).
 */
export function askedQuestion(node: Pick<QuestionNode, 'passage'>, question: string): string {
  return wellFormed(renderMentions(questionWithPassage({ passage: node.passage, question })));
}
