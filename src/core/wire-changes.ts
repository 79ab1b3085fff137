import type { GraphChange } from './changes.ts';
import type { EventDraft } from './event-log.ts';
import { outgoingWires } from './graph.ts';
import { GraphError } from './graph-error.ts';
import { dropMentionText } from './mention-unwire.ts';
import { cyclePath } from './walk.ts';
import { asGraph, findNode, makeWire, recordEvent, removeWire, wireMeta, type ChangeScope } from './working-graph.ts';

export type WireChange = Extract<GraphChange, { type: 'wire' | 'unwire' | 'set-wire-kind' }>;

/** Wiring changes: a new wire (refused when it would close a cycle), unwire, change a wire's kind. */
export function applyWireChange(scope: ChangeScope, change: WireChange): GraphError | null {
  const { working, context, writable } = scope;
  const needNode = (nodeId: string) => findNode(working, nodeId);
  const emit = (op: string, objectId: string, meta: EventDraft['meta'] = {}) =>
    recordEvent(working, op, objectId, meta);

  switch (change.type) {
    case 'wire': {
      const from = needNode(change.from);
      if (from instanceof GraphError) return from;
      const to = needNode(change.to);
      if (to instanceof GraphError) return to;
      if (from.kind === 'frame' || to.kind === 'frame') {
        return new GraphError('invalid', 'Frames group nodes visually; they cannot be wired.', {
          nodeId: from.kind === 'frame' ? from.id : to.id,
        });
      }
      for (const wireId of outgoingWires(asGraph(working), from.id)) {
        if (working.wires.get(wireId)!.to === to.id) {
          return new GraphError('duplicate', `${from.id} is already wired into ${to.id}.`, { wireId });
        }
      }
      const path = cyclePath(asGraph(working), from.id, to.id);
      if (path) {
        return new GraphError('cycle', `This wire would close a loop: ${path.join(' → ')}. Canvases are acyclic.`, {
          path,
        });
      }
      const id = change.id ?? context.newId();
      if (working.wires.has(id))
        return new GraphError('duplicate', `A wire with id ${id} already exists.`, { wireId: id });
      const wire = makeWire(id, from.id, to.id, context.now, change);
      if (wire instanceof GraphError) return wire;
      writable('wires').set(id, wire);
      const incoming = writable('incoming');
      incoming.set(to.id, [...(incoming.get(to.id) ?? []), id]);
      const outgoing = writable('outgoing');
      outgoing.set(from.id, [...(outgoing.get(from.id) ?? []), id]);
      working.touched.add(to.id);
      emit('wire', id, wireMeta(wire));
      return null;
    }
    case 'unwire': {
      const wire = working.wires.get(change.wireId);
      if (!wire) return new GraphError('not-found', `There is no wire ${change.wireId}.`, { wireId: change.wireId });
      removeWire(working, wire.id, writable);
      working.touched.add(wire.to);
      emit('unwire', wire.id, wireMeta(wire));
      // C31: a mention wire takes its mention out of the question with it.
      return wire.kind === 'dashed' && wire.mention ? dropMentionText(scope, wire) : null;
    }
    case 'set-wire-kind': {
      const wire = working.wires.get(change.wireId);
      if (!wire) return new GraphError('not-found', `There is no wire ${change.wireId}.`, { wireId: change.wireId });
      const keepMention = wire.kind === 'dashed' && wire.mention === true && change.kind === 'dashed';
      const next = makeWire(
        wire.id,
        wire.from,
        wire.to,
        wire.createdAt,
        keepMention ? { ...change, mention: true } : change,
      );
      if (next instanceof GraphError) return next;
      const unchanged =
        next.kind === 'solid' ? wire.kind === 'solid' : wire.kind === 'dashed' && wire.depth === next.depth;
      if (unchanged) return null;
      writable('wires').set(wire.id, next);
      working.touched.add(wire.to);
      emit('rewire', wire.id, wireMeta(next));
      return null;
    }
  }
}
