import type { GraphChange } from './changes.ts';
import { GraphError } from './graph-error.ts';
import { mentionedIds, mentionTitle, withMentionTitle } from './mention-text.ts';
import { nodeTitle } from './node-title.ts';
import { findNode, recordEvent, storeNode, type ChangeScope } from './working-graph.ts';

/**
 * C31: a mention keeps the title it was written with (that title is what the compiled question reads), so a
 * rename of the mentioned node changes nothing downstream until the person asks for it. `update-mention`
 * rewrites the question's tokens of that node to its title of now: one `edit` event, the question touched
 * (its fingerprint changes exactly then). Already current → no change, no event.
 */
export function applyMentionUpdate(
  scope: ChangeScope,
  change: Extract<GraphChange, { type: 'update-mention' }>,
): GraphError | null {
  const node = findNode(scope.working, change.nodeId);
  if (node instanceof GraphError) return node;
  if (node.kind !== 'question')
    return new GraphError('invalid', `A ${node.kind} node has no question to hold a mention.`, { nodeId: node.id });
  if (!mentionedIds(node.question).includes(change.mentionedId))
    return new GraphError('invalid', `The question of ${node.id} does not mention ${change.mentionedId}.`, {
      nodeId: node.id,
    });
  const mentioned = findNode(scope.working, change.mentionedId);
  if (mentioned instanceof GraphError) return mentioned;
  const question = withMentionTitle(node.question, mentioned.id, mentionTitle(nodeTitle(mentioned)));
  if (question === node.question) return null;
  const failed = storeNode(scope, { ...node, question });
  if (failed) return failed;
  scope.working.touched.add(node.id);
  recordEvent(scope.working, 'edit', node.id, { kind: node.kind, fields: 'question' });
  return null;
}
