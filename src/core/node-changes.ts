import { VersionSchema, type CanvasNode, type QuestionNode } from '../../protocol/index.ts';
import type { GraphChange } from './changes.ts';
import type { EventDraft } from './event-log.ts';
import { checkEventsFor, checkEventsForEdit } from './version-checks.ts';
import { incomingWires, outgoingWires } from './graph.ts';
import { GraphError } from './graph-error.ts';
import { dropMentionText } from './mention-unwire.ts';
import { syncMentionWires } from './mention-wires.ts';
import { EDITABLE_FIELDS, nodeFromDraft } from './node-factory.ts';
import { rebaseOffDeleted } from './recorded-upstream.ts';
import {
  addAttachment,
  asGraph,
  findNode,
  recordEvent,
  removeWire,
  storeNode,
  type ChangeScope,
} from './working-graph.ts';

export type NodeChange = Extract<
  GraphChange,
  {
    type:
      | 'add-node'
      | 'import-material'
      | 'edit-node'
      | 'delete-node'
      | 'move-node'
      | 'add-version'
      | 'select-version'
      | 'archive'
      | 'unarchive'
      | 'set-auto-rerun'
      | 'exclude-part'
      | 'include-part';
  }
>;

/** Changes to one node: add, import, edit, delete, move, versions, archive, auto-rerun, exclusions. */
export function applyNodeChange(scope: ChangeScope, change: NodeChange): GraphError | null {
  const { working, context, writable } = scope;
  const needNode = (nodeId: string) => findNode(working, nodeId);
  const putNode = (node: CanvasNode) => storeNode(scope, node);
  const emit = (op: string, objectId: string, meta: EventDraft['meta'] = {}) =>
    recordEvent(working, op, objectId, meta);

  switch (change.type) {
    case 'add-node':
    case 'import-material': {
      const draft = change.type === 'add-node' ? change.node : change.material;
      const id = draft.id ?? context.newId();
      if (working.nodes.has(id))
        return new GraphError('duplicate', `A node with id ${id} already exists.`, { nodeId: id });
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
      if (change.type === 'add-node') {
        emit('add', id, { kind: draft.kind });
        if (draft.kind === 'question') return syncMentionWires(scope, id, '', draft.question);
      } else {
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
      const fields = Object.keys(change.patch).filter(
        (key) => (change.patch as Record<string, unknown>)[key] !== undefined,
      );
      const allowed = EDITABLE_FIELDS[node.kind];
      const refused = fields.filter((field) => !allowed.includes(field));
      if (refused.length > 0) {
        return new GraphError('invalid', `A ${node.kind} node has no editable ${refused.join(', ')}.`, {
          nodeId: node.id,
        });
      }
      if (fields.length === 0) return null;
      const patched = { ...node } as Record<string, unknown>;
      for (const field of fields) patched[field] = (change.patch as Record<string, unknown>)[field];
      // C14: a note the person rewrites is theirs from then on, whoever wrote it first (edit-node is a person's act).
      if (node.kind === 'note' && patched.text !== node.text) patched.author = 'person';
      // The same for a question a model or Weft wrote: a person's rewrite of the text makes it theirs.
      if (node.kind === 'question' && patched.question !== node.question) patched.questionAuthor = 'person';
      const failed = putNode(patched as CanvasNode);
      if (failed) return failed;
      working.touched.add(node.id);
      emit('edit', node.id, { kind: node.kind, fields: fields.sort().join(',') });
      // Issue 31: a new or changed check scores the answers already there (results are events; nothing turns stale).
      if (node.kind === 'question' && fields.includes('checks')) {
        for (const event of checkEventsForEdit(node, patched as QuestionNode))
          emit(event.op, event.objectId, event.meta);
      }
      if (node.kind === 'question' && fields.includes('question'))
        return syncMentionWires(scope, node.id, node.question, (patched as { question: string }).question);
      return null;
    }
    case 'delete-node': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      // Versions resting on this node's recorded upstream keep their parts (C6) once it is gone.
      for (const dependent of rebaseOffDeleted(asGraph(working), node.id))
        writable('nodes').set(dependent.id, dependent);
      const wireIds = [...incomingWires(asGraph(working), node.id), ...outgoingWires(asGraph(working), node.id)];
      // C31: a question that mentions this node loses the mention with its wire, so no edit of it is refused later.
      for (const wireId of outgoingWires(asGraph(working), node.id)) {
        const wire = working.wires.get(wireId)!;
        if (wire.kind !== 'dashed' || !wire.mention) continue;
        const failed = dropMentionText(scope, wire);
        if (failed) return failed;
      }
      for (const wireId of wireIds) removeWire(working, wireId, writable);
      // C29: a role pick naming this node would name nothing; the join asks for a pick again if still needed.
      for (const other of working.nodes.values())
        if (other.kind === 'question' && other.rolePick === node.id)
          writable('nodes').set(other.id, { ...other, rolePick: null });
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
      if (change.size !== undefined)
        moved.size = change.size ? { width: change.size.width, height: change.size.height } : null;
      // Moving is layout, not a semantic mutation: no event, nothing touched.
      return putNode(moved);
    }
    case 'add-version': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      if (node.kind !== 'question')
        return new GraphError('invalid', `A ${node.kind} node has no versions.`, { nodeId: node.id });
      const version = {
        ...change.version,
        id: change.version.id ?? context.newId(),
        createdAt: change.version.createdAt ?? context.now,
      };
      const checked = VersionSchema.safeParse(version);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        return new GraphError('invalid', `Version: ${issue.path.join('.')}: ${issue.message}`, { nodeId: node.id });
      }
      if (node.versions.some((existing) => existing.id === version.id)) {
        return new GraphError('duplicate', `Version ${version.id} already exists on ${node.id}.`, { nodeId: node.id });
      }
      const select = change.select ?? true;
      const failed = putNode({
        ...node,
        versions: [...node.versions, checked.data],
        currentVersionId: select ? version.id : node.currentVersionId,
      });
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
      // Issue 31: every new version is scored here, on every path that adds one (run, set, re-run, import, CLI);
      // rubrics wait for the decision model. The results are events only: the version and node stay as they were.
      for (const event of checkEventsFor(node, checked.data)) emit(event.op, event.objectId, event.meta);
      return null;
    }
    case 'select-version': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      if (node.kind !== 'question')
        return new GraphError('invalid', `A ${node.kind} node has no versions.`, { nodeId: node.id });
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
      if (node.kind !== 'question')
        return new GraphError('invalid', `A ${node.kind} node cannot rerun.`, { nodeId: node.id });
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
      const excludedParts = exclude
        ? [...node.excludedParts, change.partId]
        : node.excludedParts.filter((part) => part !== change.partId);
      const failed = putNode({ ...node, excludedParts });
      if (failed) return failed;
      working.touched.add(node.id);
      emit(exclude ? 'exclude' : 'include', node.id, { partId: change.partId });
      return null;
    }
  }
}
