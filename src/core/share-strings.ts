import type { CanvasDocument, EventRecord, QuestionNode, UpstreamRecord, Wire } from '../../protocol/index.ts';

/**
 * Makes the equal strings of a canvas just parsed from JSON one string each, in place: JSON.parse gives every
 * occurrence its own copy, and a canvas names each node id ~10 times (its wires, the events, the upstream records
 * of the answers below it), repeats a question in each of its versions, a model in every version and each event's
 * hash as the next one's `prevHash`. At 10,000 nodes the copies were ~5 MB of the open page's heap. Only strings
 * are swapped for equal ones: every record keeps exactly its values (the durable record, hashes and saves are
 * unchanged). Call it before the records are shared (a graph, a cache), as the open does.
 */
export function shareRepeatedStrings(document: CanvasDocument): CanvasDocument {
  const seen = new Map<string, string>();
  const share = (value: string): string => {
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  };
  for (const node of document.nodes) {
    node.id = share(node.id);
    if (node.kind === 'question') shareVersions(node, share);
  }
  for (const wire of document.wires) shareWire(wire, share);
  shareEvents(document.events, share);
  return document;
}

type Share = (value: string) => string;

function shareVersions(node: QuestionNode, share: Share): void {
  node.question = share(node.question);
  if (node.currentVersionId !== null) node.currentVersionId = share(node.currentVersionId);
  for (const version of node.versions) {
    version.id = share(version.id);
    version.question = share(version.question);
    version.model = share(version.model);
    version.upstreamFingerprint = share(version.upstreamFingerprint);
    shareUpstream(version.upstream, share);
  }
}

function shareUpstream(upstream: UpstreamRecord, share: Share): void {
  if (upstream.base) {
    upstream.base.nodeId = share(upstream.base.nodeId);
    upstream.base.versionId = share(upstream.base.versionId);
  }
  for (const part of upstream.parts) {
    part.nodeId = share(part.nodeId);
    part.hash = share(part.hash);
  }
  for (let index = 0; index < upstream.removed.length; index += 1)
    upstream.removed[index] = share(upstream.removed[index]!);
}

function shareWire(wire: Wire, share: Share): void {
  wire.id = share(wire.id);
  wire.from = share(wire.from);
  wire.to = share(wire.to);
}

function shareEvents(events: EventRecord[], share: Share): void {
  let previous = '';
  for (const event of events) {
    // The chain: each `prevHash` is the event before's `hash` (hashes are not otherwise repeated, so not kept).
    if (event.prevHash === previous) event.prevHash = previous;
    previous = event.hash;
    event.op = share(event.op);
    event.objectId = share(event.objectId);
    const meta = event.meta;
    for (const key in meta) {
      const value = meta[key];
      if (typeof value === 'string') meta[key] = share(value);
    }
  }
}
