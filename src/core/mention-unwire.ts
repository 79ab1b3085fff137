import type { Wire } from '../../protocol/index.ts';
import type { GraphError } from './graph-error.ts';
import { withoutMentionsOf } from './mention-text.ts';
import { recordEvent, storeNode, type ChangeScope } from './working-graph.ts';

/** C31: after a mention wire is removed, its mention leaves the target's question (one `edit` event). */
export function dropMentionText(scope: ChangeScope, wire: Extract<Wire, { kind: 'dashed' }>): GraphError | null {
  const node = scope.working.nodes.get(wire.to);
  if (!node || node.kind !== 'question') return null;
  const question = withoutMentionsOf(node.question, wire.from);
  if (question === node.question) return null;
  const failed = storeNode(scope, { ...node, question });
  if (failed) return failed;
  scope.working.touched.add(node.id);
  recordEvent(scope.working, 'edit', node.id, { kind: node.kind, fields: 'question' });
  return null;
}
