import type { QuestionNode } from '../../protocol/index.ts';
import type { GraphChange } from './changes.ts';
import { GraphError } from './graph-error.ts';
import { failure, success, type Result } from './result.ts';

/**
 * A person's edit of an answer, recorded as a new `manual` version beside the one it was edited from (never
 * overwriting it). It keeps the base version's question, model and upstream snapshot: editing the words does not
 * make an answer fresh against an upstream that has moved on, and it was sent as no request (no hash).
 */
export function manualVersion(
  node: QuestionNode,
  baseVersionId: string,
  text: string,
): Result<Extract<GraphChange, { type: 'add-version' }>, GraphError> {
  const base = node.versions.find((version) => version.id === baseVersionId);
  if (!base)
    return failure(new GraphError('not-found', `Version ${baseVersionId} is not on ${node.id}.`, { nodeId: node.id }));
  if (text === base.text)
    return failure(
      new GraphError('invalid', 'The edited answer is the same as the version it was edited from.', {
        nodeId: node.id,
      }),
    );
  return success({
    type: 'add-version',
    nodeId: node.id,
    select: true,
    version: {
      text,
      question: base.question,
      model: base.model,
      requestHash: null,
      upstreamFingerprint: base.upstreamFingerprint,
      upstream: base.upstream,
      ...(base.role !== undefined ? { role: base.role } : {}),
      ...(base.questionAuthor ? { questionAuthor: base.questionAuthor } : {}),
      origin: 'manual',
      status: 'complete',
      branchOf: base.id,
    },
  });
}
