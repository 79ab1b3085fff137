import {
  AttachmentSchema,
  CanvasNodeSchema,
  WireSchema,
  type Attachment,
  type CanvasMeta,
  type CanvasNode,
  type MirrorLedger,
  type StaleDismissal,
  type Wire,
} from '../../protocol/index.ts';
import type { ChangeContext, WireSpec } from './changes.ts';
import type { EventDraft } from './event-log.ts';
import { nodesUsingAttachments, type Graph } from './graph.ts';
import { GraphError } from './graph-error.ts';

/** A mutable copy-on-write working set for one `applyChange` call. */
export interface Working {
  canvas: CanvasMeta;
  nodes: Map<string, CanvasNode>;
  wires: Map<string, Wire>;
  incoming: Map<string, readonly string[]>;
  outgoing: Map<string, readonly string[]>;
  attachments: Map<string, Attachment>;
  dismissals: StaleDismissal[];
  ledgers: MirrorLedger[];
  drafts: EventDraft[];
  created: string[];
  touched: Set<string>;
}

/** Copies a map of the working set on first write (copy-on-write). */
export type Writable = <Key extends 'nodes' | 'wires' | 'incoming' | 'outgoing' | 'attachments'>(
  key: Key,
) => Working[Key];

/** What every change handler works in: the working set, the time and ids, copy-on-write access. */
export interface ChangeScope {
  working: Working;
  context: ChangeContext;
  writable: Writable;
}

export function findNode(working: Working, nodeId: string): CanvasNode | GraphError {
  return (
    working.nodes.get(nodeId) ?? new GraphError('not-found', `There is no node ${nodeId} on this canvas.`, { nodeId })
  );
}

/** Stores a node after checking it against the document schema, so the file always loads again. */
export function storeNode(scope: ChangeScope, node: CanvasNode): GraphError | null {
  const checked = CanvasNodeSchema.safeParse(node);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return new GraphError('invalid', `Node ${node.id}: ${issue.path.join('.') || 'node'}: ${issue.message}`, {
      nodeId: node.id,
    });
  }
  scope.writable('nodes').set(node.id, node);
  return null;
}

/** Queues an event; `applyChange` chains the queue onto the log once the whole change succeeded. */
export function recordEvent(working: Working, op: string, objectId: string, meta: EventDraft['meta'] = {}): void {
  working.drafts.push({ op, objectId, meta });
}

export function addAttachment(working: Working, attachment: Attachment, writable: Writable): GraphError | null {
  const checked = AttachmentSchema.safeParse(attachment);
  if (!checked.success) return new GraphError('invalid', `Attachment: ${checked.error.issues[0]!.message}`);
  if (working.attachments.has(attachment.hash)) return null; // content-addressed: already here
  writable('attachments').set(attachment.hash, checked.data);
  for (const id of nodesUsingAttachments(asGraph(working), new Set([attachment.hash]))) working.touched.add(id);
  recordEvent(working, 'attach', attachment.hash, {
    mediaType: attachment.mediaType,
    byteLength: attachment.byteLength,
  });
  return null;
}

/** The wire, or a refusal when it would not pass the document schema (a bad depth from an untyped caller). */
export function makeWire(id: string, from: string, to: string, createdAt: number, spec: WireSpec): Wire | GraphError {
  const wire =
    spec.kind === 'solid'
      ? { id, from, to, createdAt, kind: 'solid' }
      : { id, from, to, createdAt, kind: 'dashed', depth: spec.depth, ...(spec.mention ? { mention: true } : {}) };
  const checked = WireSchema.safeParse(wire);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return new GraphError('invalid', `Wire ${id}: ${issue.path.join('.') || 'wire'}: ${issue.message}`, { wireId: id });
  }
  return checked.data;
}

export function wireMeta(wire: Wire): EventDraft['meta'] {
  const meta: EventDraft['meta'] = {
    from: wire.from,
    to: wire.to,
    kind: wire.kind,
    depth: wire.kind === 'dashed' ? wire.depth : null,
  };
  if (wire.kind === 'dashed' && wire.mention) meta.mention = true;
  return meta;
}

export function removeWire(working: Working, wireId: string, writable: Writable): void {
  const wire = working.wires.get(wireId);
  if (!wire) return;
  writable('wires').delete(wireId);
  const incoming = writable('incoming');
  const into = (incoming.get(wire.to) ?? []).filter((id) => id !== wireId);
  if (into.length > 0) incoming.set(wire.to, into);
  else incoming.delete(wire.to);
  const outgoing = writable('outgoing');
  const outOf = (outgoing.get(wire.from) ?? []).filter((id) => id !== wireId);
  if (outOf.length > 0) outgoing.set(wire.from, outOf);
  else outgoing.delete(wire.from);
}

/** Read helpers take a Graph; the working set has the same adjacency shape. */
export function asGraph(working: Working): Graph {
  return working as unknown as Graph;
}
