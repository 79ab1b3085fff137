import {
  CANVAS_FORMAT,
  CANVAS_VERSION,
  type Attachment,
  type CanvasDocument,
  type CanvasMeta,
  type CanvasNode,
  type MirrorLedger,
  type StaleDismissal,
  type Wire,
} from '../../protocol/index.ts';
import type { EventRecord } from '../../protocol/index.ts';

/**
 * The in-memory canvas. Immutable: every change makes a new Graph that shares unchanged node
 * objects, so per-node caches can key on object identity. Maps keep document order (insertion
 * order), which is what makes the document round trip byte-identical.
 */
export interface Graph {
  readonly canvas: CanvasMeta;
  readonly nodes: ReadonlyMap<string, CanvasNode>;
  readonly wires: ReadonlyMap<string, Wire>;
  /** node id → ids of the wires ending at it (absent when none). */
  readonly incoming: ReadonlyMap<string, readonly string[]>;
  /** node id → ids of the wires starting at it (absent when none). */
  readonly outgoing: ReadonlyMap<string, readonly string[]>;
  readonly attachments: ReadonlyMap<string, Attachment>;
  readonly dismissals: readonly StaleDismissal[];
  readonly ledgers: readonly MirrorLedger[];
  /** The append-only, hash-chained event log (C10). */
  readonly events: readonly EventRecord[];
}

const EMPTY: readonly string[] = Object.freeze([]);

export function incomingWires(graph: Graph, nodeId: string): readonly string[] {
  return graph.incoming.get(nodeId) ?? EMPTY;
}

export function outgoingWires(graph: Graph, nodeId: string): readonly string[] {
  return graph.outgoing.get(nodeId) ?? EMPTY;
}

/** Builds both adjacency maps from a wire map; wire order within a list follows the map. */
export function buildAdjacency(wires: ReadonlyMap<string, Wire>): {
  incoming: Map<string, string[]>;
  outgoing: Map<string, string[]>;
} {
  const incoming = new Map<string, string[]>();
  const outgoing = new Map<string, string[]>();
  for (const wire of wires.values()) {
    push(incoming, wire.to, wire.id);
    push(outgoing, wire.from, wire.id);
  }
  return { incoming, outgoing };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function emptyCanvasDocument(meta: CanvasMeta): CanvasDocument {
  return {
    format: CANVAS_FORMAT,
    version: CANVAS_VERSION,
    canvas: { ...meta },
    nodes: [],
    wires: [],
    attachments: [],
    dismissals: [],
    ledgers: [],
    events: [],
  };
}

/** Expects a validated document (see `migrateCanvasDocument`); does not copy node objects. */
export function graphFromDocument(document: CanvasDocument): Graph {
  const nodes = new Map<string, CanvasNode>();
  for (const node of document.nodes) nodes.set(node.id, node);
  const wires = new Map<string, Wire>();
  for (const wire of document.wires) wires.set(wire.id, wire);
  const attachments = new Map<string, Attachment>();
  for (const attachment of document.attachments) attachments.set(attachment.hash, attachment);
  const { incoming, outgoing } = buildAdjacency(wires);
  return {
    canvas: document.canvas,
    nodes,
    wires,
    incoming,
    outgoing,
    attachments,
    dismissals: document.dismissals,
    ledgers: document.ledgers,
    events: document.events,
  };
}

export function documentFromGraph(graph: Graph): CanvasDocument {
  return {
    format: CANVAS_FORMAT,
    version: CANVAS_VERSION,
    canvas: graph.canvas,
    nodes: [...graph.nodes.values()],
    wires: [...graph.wires.values()],
    attachments: [...graph.attachments.values()],
    dismissals: [...graph.dismissals],
    ledgers: [...graph.ledgers],
    events: [...graph.events],
  };
}

export function emptyGraph(meta: CanvasMeta): Graph {
  return graphFromDocument(emptyCanvasDocument(meta));
}

/** Nodes whose own content names one of `hashes` (question attachments or an image material). */
export function nodesUsingAttachments(graph: Graph, hashes: ReadonlySet<string>): string[] {
  if (hashes.size === 0) return [];
  const found: string[] = [];
  for (const node of graph.nodes.values()) {
    const uses =
      (node.kind === 'question' && node.attachments.some((hash) => hashes.has(hash))) ||
      (node.kind === 'material' && node.provenance.type === 'image' && hashes.has(node.provenance.attachmentHash));
    if (uses) found.push(node.id);
  }
  return found;
}
