import { GraphError } from './graph-error.ts';
import { incomingWires } from './graph.ts';
import { mentionedIds } from './mention-text.ts';
import { applyWireChange } from './wire-changes.ts';
import { asGraph, removeWire, recordEvent, wireMeta, type ChangeScope } from './working-graph.ts';

/**
 * C31: makes a question's mention wires match the mentions in its text. A mention newly in the text adds a
 * dashed `quote` wire marked `mention` (unless that node is already wired in: the existing wire serves); a
 * mention gone from the text removes the mention wire it made. A mention of a missing node, of the node
 * itself, or one that would close a loop refuses the whole edit with that wire's error.
 */
export function syncMentionWires(scope: ChangeScope, nodeId: string, before: string, after: string): GraphError | null {
  const was = new Set(before.includes('@[') ? mentionedIds(before) : []);
  const now = after.includes('@[') ? mentionedIds(after) : [];
  const still = new Set(now);
  const { working } = scope;
  for (const wireId of [...incomingWires(asGraph(working), nodeId)]) {
    const wire = working.wires.get(wireId)!;
    if (wire.kind !== 'dashed' || !wire.mention || still.has(wire.from)) continue;
    removeWire(working, wireId, scope.writable);
    recordEvent(working, 'unwire', wireId, wireMeta(wire));
  }
  for (const fromId of now) {
    if (was.has(fromId) && hasWireFrom(scope, fromId, nodeId)) continue;
    if (fromId === nodeId) return new GraphError('invalid', 'A question cannot mention itself.', { nodeId });
    if (hasWireFrom(scope, fromId, nodeId)) continue;
    const failed = applyWireChange(scope, {
      type: 'wire',
      from: fromId,
      to: nodeId,
      kind: 'dashed',
      depth: 'quote',
      mention: true,
    });
    if (failed) return failed;
  }
  return null;
}

function hasWireFrom(scope: ChangeScope, fromId: string, toId: string): boolean {
  return incomingWires(asGraph(scope.working), toId).some((wireId) => scope.working.wires.get(wireId)!.from === fromId);
}
