import {
  CanvasNodeSchema,
  MirrorLedgerSchema,
  StaleDismissalSchema,
  VersionSchema,
  type Attachment,
  type CanvasNode,
  type MirrorLedger,
  type StaleDismissal,
  type Wire,
} from '../../protocol/canvas-document.ts';
import { EventMetaSchema, type EventRecord } from '../../protocol/event-record.ts';
import type { ApplyOutcome, ChangeContext, GraphChange } from './changes.ts';
import { appendEvent, type EventDraft } from './event-log.ts';
import { incomingWires, outgoingWires, type Graph } from './graph.ts';
import { GraphError } from './graph-error.ts';
import { EDITABLE_FIELDS, nodeFromDraft } from './node-factory.ts';
import { failure, success, type Result } from './result.ts';
import { cyclePath } from './walk.ts';
import { addAttachment, asGraph, makeWire, removeWire, wireMeta, type Working, type Writable } from './working-graph.ts';

/**
 * The one apply path (ARCHITECTURE §3): validates the change, returns the new graph with the
 * events it implies appended to the hash-chained log, or a coded refusal. Never mutates `graph`.
 */
export function applyChange(graph: Graph, change: GraphChange, context: ChangeContext): Result<ApplyOutcome, GraphError> {
  const working: Working = {
    canvas: graph.canvas,
    nodes: graph.nodes as Map<string, CanvasNode>,
    wires: graph.wires as Map<string, Wire>,
    incoming: graph.incoming as Map<string, readonly string[]>,
    outgoing: graph.outgoing as Map<string, readonly string[]>,
    attachments: graph.attachments as Map<string, Attachment>,
    dismissals: graph.dismissals as StaleDismissal[],
    ledgers: graph.ledgers as MirrorLedger[],
    drafts: [],
    created: [],
    touched: new Set(),
  };
  const copied = new Set<keyof Working>();
  const writable = <Key extends 'nodes' | 'wires' | 'incoming' | 'outgoing' | 'attachments'>(key: Key): Working[Key] => {
    if (!copied.has(key)) {
      (working as unknown as Record<string, unknown>)[key] = new Map(working[key] as Map<string, unknown>);
      copied.add(key);
    }
    return working[key];
  };
  const error = applyOne(working, change, context, writable);
  if (error) return failure(error);
  const events: EventRecord[] = [];
  // One copy of the log per change, then appends: a large batch (a 5,000-turn mirror) stays linear.
  let appended: EventRecord[] | null = null;
  for (const draft of working.drafts) {
    const record = appendEvent(appended ?? graph.events, draft, context);
    events.push(record);
    appended ??= [...graph.events];
    appended.push(record);
  }
  const log: readonly EventRecord[] = appended ?? graph.events;
  const next: Graph = {
    canvas: working.canvas,
    nodes: working.nodes,
    wires: working.wires,
    incoming: working.incoming,
    outgoing: working.outgoing,
    attachments: working.attachments,
    dismissals: working.dismissals,
    ledgers: working.ledgers,
    events: log,
  };
  return success({ graph: next, events, created: working.created, touched: [...working.touched] });
}


function applyOne(working: Working, change: GraphChange, context: ChangeContext, writable: Writable): GraphError | null {
  const needNode = (nodeId: string): CanvasNode | GraphError =>
    working.nodes.get(nodeId) ?? new GraphError('not-found', `There is no node ${nodeId} on this canvas.`, { nodeId });
  const putNode = (node: CanvasNode): GraphError | null => {
    const checked = CanvasNodeSchema.safeParse(node);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      return new GraphError('invalid', `Node ${node.id}: ${issue.path.join('.') || 'node'}: ${issue.message}`, { nodeId: node.id });
    }
    writable('nodes').set(node.id, node);
    return null;
  };
  const emit = (op: string, objectId: string, meta: EventDraft['meta'] = {}) => working.drafts.push({ op, objectId, meta });

  switch (change.type) {
    case 'add-node':
    case 'import-material': {
      const draft = change.type === 'add-node' ? change.node : change.material;
      const id = draft.id ?? context.newId();
      if (working.nodes.has(id)) return new GraphError('duplicate', `A node with id ${id} already exists.`, { nodeId: id });
      if (change.type === 'import-material') {
        for (const attachment of change.attachments ?? []) {
          const failed = addAttachment(working, attachment, writable);
          if (failed) return failed;
        }
      }
      const failed = putNode(nodeFromDraft(draft, id, context.now));
      if (failed) return failed;
      working.created.push(id);
      working.touched.add(id);
      if (change.type === 'add-node') emit('add', id, { kind: draft.kind });
      else {
        emit('import', id, {
          kind: 'material',
          provenance: change.material.provenance.type,
          attachments: (change.attachments ?? []).length,
        });
      }
      return null;
    }
    case 'edit-node': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      const fields = Object.keys(change.patch).filter((key) => (change.patch as Record<string, unknown>)[key] !== undefined);
      const allowed = EDITABLE_FIELDS[node.kind];
      const refused = fields.filter((field) => !allowed.includes(field));
      if (refused.length > 0) {
        return new GraphError('invalid', `A ${node.kind} node has no editable ${refused.join(', ')}.`, { nodeId: node.id });
      }
      if (fields.length === 0) return null;
      const patched = { ...node } as Record<string, unknown>;
      for (const field of fields) patched[field] = (change.patch as Record<string, unknown>)[field];
      const failed = putNode(patched as CanvasNode);
      if (failed) return failed;
      working.touched.add(node.id);
      emit('edit', node.id, { kind: node.kind, fields: fields.sort().join(',') });
      return null;
    }
    case 'delete-node': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      const wireIds = [...incomingWires(asGraph(working), node.id), ...outgoingWires(asGraph(working), node.id)];
      for (const wireId of wireIds) removeWire(working, wireId, writable);
      writable('nodes').delete(node.id);
      working.dismissals = working.dismissals.filter((dismissal) => dismissal.nodeId !== node.id);
      working.touched.add(node.id);
      emit('delete', node.id, { kind: node.kind, wires: wireIds.length });
      return null;
    }
    case 'move-node': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      const moved = { ...node, position: { x: change.position.x, y: change.position.y } };
      if (change.size !== undefined) moved.size = change.size ? { width: change.size.width, height: change.size.height } : null;
      // Moving is layout, not a semantic mutation: no event, nothing touched.
      return putNode(moved);
    }
    case 'add-version': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      if (node.kind !== 'question') return new GraphError('invalid', `A ${node.kind} node has no versions.`, { nodeId: node.id });
      const version = { ...change.version, id: change.version.id ?? context.newId(), createdAt: change.version.createdAt ?? context.now };
      const checked = VersionSchema.safeParse(version);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        return new GraphError('invalid', `Version: ${issue.path.join('.')}: ${issue.message}`, { nodeId: node.id });
      }
      if (node.versions.some((existing) => existing.id === version.id)) {
        return new GraphError('duplicate', `Version ${version.id} already exists on ${node.id}.`, { nodeId: node.id });
      }
      const select = change.select ?? true;
      const failed = putNode({ ...node, versions: [...node.versions, checked.data], currentVersionId: select ? version.id : node.currentVersionId });
      if (failed) return failed;
      working.touched.add(node.id);
      emit('version', node.id, {
        versionId: version.id,
        model: version.model,
        origin: version.origin,
        status: version.status,
        requestHash: version.requestHash,
        selected: select,
      });
      return null;
    }
    case 'select-version': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      if (node.kind !== 'question') return new GraphError('invalid', `A ${node.kind} node has no versions.`, { nodeId: node.id });
      if (!node.versions.some((version) => version.id === change.versionId)) {
        return new GraphError('not-found', `Node ${node.id} has no version ${change.versionId}.`, { nodeId: node.id });
      }
      if (node.currentVersionId === change.versionId) return null;
      const failed = putNode({ ...node, currentVersionId: change.versionId });
      if (failed) return failed;
      working.touched.add(node.id);
      emit('select-version', node.id, { versionId: change.versionId });
      return null;
    }
    case 'wire': {
      const from = needNode(change.from);
      if (from instanceof GraphError) return from;
      const to = needNode(change.to);
      if (to instanceof GraphError) return to;
      if (from.kind === 'frame' || to.kind === 'frame') {
        return new GraphError('invalid', 'Frames group nodes visually; they cannot be wired.', { nodeId: from.kind === 'frame' ? from.id : to.id });
      }
      for (const wireId of outgoingWires(asGraph(working), from.id)) {
        if (working.wires.get(wireId)!.to === to.id) {
          return new GraphError('duplicate', `${from.id} is already wired into ${to.id}.`, { wireId });
        }
      }
      const path = cyclePath(asGraph(working), from.id, to.id);
      if (path) {
        return new GraphError('cycle', `This wire would close a loop: ${path.join(' → ')}. Canvases are acyclic.`, { path });
      }
      const id = change.id ?? context.newId();
      if (working.wires.has(id)) return new GraphError('duplicate', `A wire with id ${id} already exists.`, { wireId: id });
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
      return null;
    }
    case 'set-wire-kind': {
      const wire = working.wires.get(change.wireId);
      if (!wire) return new GraphError('not-found', `There is no wire ${change.wireId}.`, { wireId: change.wireId });
      const next = makeWire(wire.id, wire.from, wire.to, wire.createdAt, change);
      if (next instanceof GraphError) return next;
      if (next.kind === wire.kind && (next.kind !== 'dashed' || wire.kind !== 'dashed' || next.depth === wire.depth)) return null;
      writable('wires').set(wire.id, next);
      working.touched.add(wire.to);
      emit('rewire', wire.id, wireMeta(next));
      return null;
    }
    case 'archive':
    case 'unarchive': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      const archived = change.type === 'archive';
      if (node.archived === archived) return null;
      const failed = putNode({ ...node, archived, archivedAt: archived ? context.now : null });
      if (failed) return failed;
      working.touched.add(node.id);
      emit(change.type, node.id, { kind: node.kind });
      return null;
    }
    case 'set-auto-rerun': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      if (node.kind !== 'question') return new GraphError('invalid', `A ${node.kind} node cannot rerun.`, { nodeId: node.id });
      const autoRerun = { enabled: change.enabled, rounds: change.rounds ?? node.autoRerun.rounds };
      const failed = putNode({ ...node, autoRerun });
      if (failed) return failed;
      emit('auto-rerun', node.id, { enabled: autoRerun.enabled, rounds: autoRerun.rounds });
      return null;
    }
    case 'exclude-part':
    case 'include-part': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      const has = node.excludedParts.includes(change.partId);
      const exclude = change.type === 'exclude-part';
      if (has === exclude) return null;
      const excludedParts = exclude ? [...node.excludedParts, change.partId] : node.excludedParts.filter((part) => part !== change.partId);
      const failed = putNode({ ...node, excludedParts });
      if (failed) return failed;
      working.touched.add(node.id);
      emit(exclude ? 'exclude' : 'include', node.id, { partId: change.partId });
      return null;
    }
    case 'add-attachment':
      return addAttachment(working, change.attachment, writable);
    case 'set-dismissal': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      // A probability outside [0, 1] (or NaN, which would dismiss) must not reach the file: it would no longer load.
      const checked = StaleDismissalSchema.safeParse({
        nodeId: node.id,
        fingerprint: change.fingerprint,
        probability: change.probability,
        reason: String(change.reason).slice(0, 500),
        at: context.now,
        overruled: false,
      });
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        return new GraphError('invalid', `Stale verdict: ${issue.path.join('.')}: ${issue.message}`, { nodeId: node.id });
      }
      const dismissal: StaleDismissal = checked.data;
      working.dismissals = [
        ...working.dismissals.filter((item) => !(item.nodeId === node.id && item.fingerprint === change.fingerprint)),
        dismissal,
      ];
      emit('stale-verdict', node.id, { fingerprint: change.fingerprint, probability: change.probability, dismissed: change.probability < 0.5 });
      return null;
    }
    case 'overrule-dismissal': {
      const index = working.dismissals.findIndex((item) => item.nodeId === change.nodeId && item.fingerprint === change.fingerprint);
      if (index < 0) return new GraphError('not-found', `No stale verdict on ${change.nodeId} for that fingerprint.`, { nodeId: change.nodeId });
      const dismissals = [...working.dismissals];
      dismissals[index] = { ...dismissals[index]!, overruled: change.overruled };
      working.dismissals = dismissals;
      emit('stale-overrule', change.nodeId, { fingerprint: change.fingerprint, overruled: change.overruled });
      return null;
    }
    case 'set-ledger': {
      const checked = MirrorLedgerSchema.safeParse(change.ledger);
      if (!checked.success) return new GraphError('invalid', `Mirror ledger: ${checked.error.issues[0]!.message}`);
      const ledger = checked.data;
      working.ledgers = [
        ...working.ledgers.filter((item) => !(item.runner === ledger.runner && item.sessionId === ledger.sessionId)),
        ledger,
      ];
      emit('mirror-ledger', ledger.sessionId, { runner: ledger.runner, turns: ledger.turnKeys.length, following: ledger.following });
      return null;
    }
    case 'rename-canvas': {
      const name = change.name.trim();
      if (name.length === 0 || name.length > 200) return new GraphError('invalid', 'A canvas name has 1 to 200 characters.');
      working.canvas = { ...working.canvas, name };
      emit('rename', working.canvas.id, {});
      return null;
    }
    case 'record': {
      const checked = EventMetaSchema.safeParse(change.event.meta);
      if (!checked.success || change.event.op.length === 0) {
        return new GraphError('invalid', `Event ${change.event.op || '(no op)'}: metadata must be short strings, numbers, booleans or null.`);
      }
      emit(change.event.op, change.event.objectId, checked.data);
      return null;
    }
    case 'batch': {
      for (const inner of change.changes) {
        const failed = applyOne(working, inner, context, writable);
        if (failed) return failed;
      }
      return null;
    }
    default:
      // Changes can arrive from untyped places (a file, a message); refuse what is not one.
      return new GraphError('invalid', `Unknown change type ${JSON.stringify((change as { type?: unknown }).type)}.`);
  }
}

