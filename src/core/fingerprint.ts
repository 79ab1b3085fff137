import type { UpstreamPart } from '../../protocol/canvas-document.ts';
import type { Graph } from './graph.ts';

/** C6: hash of the compiled context with the node's own content blanked, compiled without stale marks. */
export function upstreamFingerprint(graph: Graph, nodeId: string): string {
  void graph;
  void nodeId;
  throw new Error('upstreamFingerprint: in progress');
}

/** Per live upstream node: the hash of what it contributes and its first 240 characters. */
export function upstreamParts(graph: Graph, nodeId: string): UpstreamPart[] {
  void graph;
  void nodeId;
  throw new Error('upstreamParts: in progress');
}

export interface UpstreamPartsDiff {
  added: UpstreamPart[];
  removed: UpstreamPart[];
  changed: { nodeId: string; before: UpstreamPart; after: UpstreamPart }[];
  unchanged: number;
}

/** What changed between the parts a version recorded and the parts now. */
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

/** What a version records at dispatch (C6): fingerprint and parts, taken together. */
export function upstreamSnapshot(graph: Graph, nodeId: string): { upstreamFingerprint: string; upstreamParts: UpstreamPart[] } {
  return { upstreamFingerprint: upstreamFingerprint(graph, nodeId), upstreamParts: upstreamParts(graph, nodeId) };
}
