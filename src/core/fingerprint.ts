import type { CanvasNode, UpstreamPart, UpstreamRecord } from '../../protocol/index.ts';
import { ContextEmitter, MessageSink, walkContext, type ContextSink, type WalkOptions } from './assemble.ts';
import { FingerprintSink, type FingerprintPrefix } from './fingerprint-sink.ts';
import { incomingWires, type Graph } from './graph.ts';
import { GraphError } from './graph-error.ts';
import { isLive } from './live.ts';
import { jsHashPort, type HashPort } from './hash-port.ts';
import { hashCanonical } from './hashing.ts';
import { partitionUpstream } from './partition.ts';
import { upstreamRecordFor } from './recorded-upstream.ts';
import { sliceWhole } from './well-formed.ts';

/**
 * Shared across fingerprints of one graph (one StaleTracker pass): reference blocks by
 * `id|depth`, and each node's prefix — the hash state just before its own question — so a
 * child that only extends its parent's context hashes two messages instead of its whole chain.
 */
export interface FingerprintSession {
  /** SHA-256 for every digest and fingerprint of the session. */
  hash: HashPort;
  referenceMemo: Map<string, { text: string; digest: string }>;
  prefixes: Map<string, FingerprintPrefix>;
}

export function fingerprintSession(hash: HashPort = jsHashPort): FingerprintSession {
  return { hash, referenceMemo: new Map(), prefixes: new Map() };
}

const NO_STALE: ReadonlySet<string> = new Set();
const OPENING_LENGTH = 240;

function blank(hash: HashPort): WalkOptions {
  return { stale: NO_STALE, blankOwn: true, hash };
}

function walkBlank(graph: Graph, nodeId: string, sink: ContextSink, session: FingerprintSession): ContextEmitter {
  return walkContext(
    graph,
    partitionUpstream(graph, nodeId),
    { ...blank(session.hash), referenceMemo: session.referenceMemo },
    sink,
  );
}

/**
 * The parent whose context this node's context extends by exactly the parent's own turn: the
 * node has one incoming wire, solid, from a live question or mirror, and neither excludes
 * parts. Then the scope is the parent's scope plus the parent (last in topological order),
 * with the same materials and references — so the prefix can be reused.
 */
function extendedParent(graph: Graph, nodeId: string): CanvasNode | null {
  const node = graph.nodes.get(nodeId);
  if (!node || (node.kind !== 'question' && node.kind !== 'mirror') || node.excludedParts.length > 0) return null;
  // C29: a node that sets, resets or picks its role does not share its parent's first message.
  if (node.kind === 'question' && ((node.role && node.role.mode !== 'inherit') || node.rolePick)) return null;
  const incoming = incomingWires(graph, nodeId);
  if (incoming.length !== 1) return null;
  const wire = graph.wires.get(incoming[0]!)!;
  if (wire.kind !== 'solid') return null;
  const parent = graph.nodes.get(wire.from);
  if (
    !parent ||
    !isLive(parent) ||
    (parent.kind !== 'question' && parent.kind !== 'mirror') ||
    parent.excludedParts.length > 0
  )
    return null;
  return parent;
}

/** The prefix of `nodeId`'s blanked context, reusing and filling `session.prefixes`. */
function prefixOf(graph: Graph, nodeId: string, session: FingerprintSession): FingerprintPrefix {
  const known = session.prefixes.get(nodeId);
  if (known) return known;
  // Climb while each node extends its parent and the parent's prefix is unknown.
  const climb: { child: CanvasNode; parent: CanvasNode }[] = [];
  let current = nodeId;
  let base: FingerprintPrefix;
  for (;;) {
    const memo = session.prefixes.get(current);
    if (memo) {
      base = memo;
      break;
    }
    const parent = extendedParent(graph, current);
    if (!parent) {
      const sink = new FingerprintSink(session.hash);
      const emitter: ContextEmitter = walkBlank(graph, current, sink, session);
      base = { ...sink.prefix!, seenAttachments: emitter.seenAttachments };
      session.prefixes.set(current, base);
      break;
    }
    climb.push({ child: graph.nodes.get(current)!, parent });
    current = parent.id;
  }
  for (let index = climb.length - 1; index >= 0; index -= 1) {
    const { child, parent } = climb[index]!;
    const sink = new FingerprintSink(session.hash, base);
    const emitter = new ContextEmitter(graph, child, blank(session.hash), sink, new Set(base.seenAttachments));
    emitter.chainNode(parent);
    base = sink.snapshot(emitter.seenAttachments);
    session.prefixes.set(child.id, base);
  }
  return base;
}

/**
 * C6: the hash of the compiled context with the node's own content (question, attachments)
 * blanked. It is compiled with an empty stale set, so a stale mark upstream never makes an
 * answer stale by itself. Each message is hashed as its role and the SHA-256 of each content
 * part, which is a function of exactly the compiled bytes and lets per-node digests be cached:
 * `hashCanonical({ format: 'weft.fingerprint', version: 1, messages: [[role, [digest…]]…] })`.
 */
export function upstreamFingerprint(
  graph: Graph,
  nodeId: string,
  session: FingerprintSession = fingerprintSession(),
): string {
  const target = graph.nodes.get(nodeId);
  if (!target) throw new GraphError('not-found', `There is no node ${nodeId} on this canvas.`, { nodeId });
  if (target.kind !== 'question' && target.kind !== 'mirror') {
    throw new GraphError('invalid', `A ${target.kind} node has no question to compile.`, { nodeId });
  }
  const prefix = prefixOf(graph, nodeId, session);
  const sink = new FingerprintSink(session.hash, prefix);
  new ContextEmitter(graph, target, blank(session.hash), sink, new Set(prefix.seenAttachments)).question();
  return sink.digestHex();
}

/** Per live upstream node (compile order): the hash of what it contributes and its opening. */
export function upstreamParts(
  graph: Graph,
  nodeId: string,
  session: FingerprintSession = fingerprintSession(),
): UpstreamPart[] {
  const sink = new MessageSink(true);
  walkBlank(graph, nodeId, sink, session);
  const byNode = new Map<string, { digests: unknown[]; texts: string[] }>();
  sink.sources.forEach((source, index) => {
    if (source.nodeId === nodeId) return;
    let entry = byNode.get(source.nodeId);
    if (!entry) {
      entry = { digests: [], texts: [] };
      byNode.set(source.nodeId, entry);
    }
    const message = sink.messages[index]!;
    entry.digests.push([message.role, sink.digests[index]!]);
    for (const part of message.content) if (part.type === 'text') entry.texts.push(part.text);
  });
  return [...byNode].map(([id, entry]) => ({
    nodeId: id,
    hash: hashCanonical(entry.digests, session.hash),
    opening: sliceWhole(entry.texts.join('\n'), OPENING_LENGTH),
  }));
}

export interface UpstreamPartsDiff {
  added: UpstreamPart[];
  removed: UpstreamPart[];
  changed: { nodeId: string; before: UpstreamPart; after: UpstreamPart }[];
  unchanged: number;
}

/** What changed between the parts a version recorded and the parts now (the UI says *what*). */
export function diffUpstreamParts(
  recorded: readonly UpstreamPart[],
  current: readonly UpstreamPart[],
): UpstreamPartsDiff {
  const before = new Map(recorded.map((part) => [part.nodeId, part]));
  const after = new Map(current.map((part) => [part.nodeId, part]));
  const diff: UpstreamPartsDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const part of current) {
    const old = before.get(part.nodeId);
    if (!old) diff.added.push(part);
    else if (old.hash !== part.hash) diff.changed.push({ nodeId: part.nodeId, before: old, after: part });
    else diff.unchanged += 1;
  }
  for (const part of recorded) if (!after.has(part.nodeId)) diff.removed.push(part);
  return diff;
}

/**
 * What a version records at dispatch (C6): the fingerprint, and the parts as a difference from a parent's
 * recorded parts (`recordedUpstreamParts` folds them back), from one compile.
 */
export function upstreamSnapshot(
  graph: Graph,
  nodeId: string,
  hash: HashPort = jsHashPort,
): { upstreamFingerprint: string; upstream: UpstreamRecord } {
  const session = fingerprintSession(hash);
  return {
    upstreamFingerprint: upstreamFingerprint(graph, nodeId, session),
    upstream: upstreamRecordFor(graph, nodeId, upstreamParts(graph, nodeId, session)),
  };
}
