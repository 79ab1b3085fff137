import type { UpstreamPart } from '../../protocol/canvas-document.ts';
import { MessageSink, walkContext, type ContextSink } from './assemble.ts';
import { FingerprintSink } from './fingerprint-sink.ts';
import type { Graph } from './graph.ts';
import { hashCanonical, sha256Hex } from './hashing.ts';
import { partitionUpstream } from './partition.ts';

/** Shared across fingerprints of one graph (e.g. one StaleTracker pass): reference blocks by `id|depth`. */
export interface FingerprintSession {
  referenceMemo: Map<string, { text: string; digest: string }>;
}

export function fingerprintSession(): FingerprintSession {
  return { referenceMemo: new Map() };
}

const NO_STALE: ReadonlySet<string> = new Set();
const OPENING_LENGTH = 240;

function walkBlank(graph: Graph, nodeId: string, sink: ContextSink, session?: FingerprintSession): void {
  walkContext(graph, partitionUpstream(graph, nodeId), { stale: NO_STALE, blankOwn: true, referenceMemo: session?.referenceMemo ?? new Map() }, sink);
}

/**
 * C6: the hash of the compiled context with the node's own content (question, attachments)
 * blanked. It is compiled with an empty stale set, so a stale mark upstream never makes an
 * answer stale by itself. Each message is hashed as its role and the SHA-256 of each content
 * part, which is a function of exactly the compiled bytes and lets per-node digests be cached:
 * `hashCanonical({ format: 'weft.fingerprint', version: 1, messages: [[role, [digest…]]…] })`.
 */
export function upstreamFingerprint(graph: Graph, nodeId: string, session?: FingerprintSession): string {
  const sink = new FingerprintSink();
  walkBlank(graph, nodeId, sink, session);
  return sha256Hex(sink.canonical());
}

/** Per live upstream node (compile order): the hash of what it contributes and its opening. */
export function upstreamParts(graph: Graph, nodeId: string, session?: FingerprintSession): UpstreamPart[] {
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
    hash: hashCanonical(entry.digests),
    opening: opening(entry.texts.join('\n')),
  }));
}

/** The first 240 UTF-16 units, never ending on half a surrogate pair. */
function opening(text: string): string {
  const cut = text.slice(0, OPENING_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

export interface UpstreamPartsDiff {
  added: UpstreamPart[];
  removed: UpstreamPart[];
  changed: { nodeId: string; before: UpstreamPart; after: UpstreamPart }[];
  unchanged: number;
}

/** What changed between the parts a version recorded and the parts now (the UI says *what*). */
export function diffUpstreamParts(recorded: readonly UpstreamPart[], current: readonly UpstreamPart[]): UpstreamPartsDiff {
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

/** What a version records at dispatch (C6): fingerprint and parts, from one compile. */
export function upstreamSnapshot(graph: Graph, nodeId: string): { upstreamFingerprint: string; upstreamParts: UpstreamPart[] } {
  const session = fingerprintSession();
  return { upstreamFingerprint: upstreamFingerprint(graph, nodeId, session), upstreamParts: upstreamParts(graph, nodeId, session) };
}
