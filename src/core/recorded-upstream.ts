import type { CanvasNode, QuestionNode, UpstreamPart, UpstreamRecord, Version } from '../../protocol/index.ts';
import { foldUpstream, upstreamDelta, upstreamRecordSize } from '../../protocol/index.ts';
import { incomingWires, type Graph } from './graph.ts';
import { isLive } from './live.ts';

/** Candidate bases tried per dispatch: a node's direct question parents, at most this many. */
const MAX_BASE_CANDIDATES = 8;

export interface RecordedUpstream {
  /** The parts the version recorded, in the order its records laid them down. */
  parts: UpstreamPart[];
  /** False when a base could not be found (a hand-edited file): the parts then hold only what was recorded. */
  complete: boolean;
}

function versionOf(node: CanvasNode | undefined, versionId: string): Version | undefined {
  return node?.kind === 'question' ? node.versions.find((version) => version.id === versionId) : undefined;
}

/**
 * C6: the upstream parts `version` recorded when it was asked, folded from its chain of base records (each
 * version stores only what differs from its base). Cycle-safe: a base met twice ends the walk as incomplete.
 */
export function recordedUpstreamParts(graph: Graph, version: Pick<Version, 'id' | 'upstream'>): RecordedUpstream {
  const chain: UpstreamRecord[] = [version.upstream];
  const seen = new Set<string>([version.id]);
  let complete = true;
  let base = version.upstream.base;
  while (base) {
    const next = versionOf(graph.nodes.get(base.nodeId), base.versionId);
    if (!next || seen.has(next.id)) {
      complete = false;
      break;
    }
    seen.add(next.id);
    chain.push(next.upstream);
    base = next.upstream.base;
  }
  return { parts: foldUpstream(chain.reverse()), complete };
}

/**
 * What a new version of `nodeId` records about `current` (its upstream parts now): a difference from the current
 * version of whichever direct question parent differs least — in a chain, the parent's answer, so one part.
 */
export function upstreamRecordFor(graph: Graph, nodeId: string, current: readonly UpstreamPart[]): UpstreamRecord {
  let best = upstreamDelta(null, [], current);
  const candidates = incomingWires(graph, nodeId).slice(0, MAX_BASE_CANDIDATES);
  for (const wireId of candidates) {
    const parentId = graph.wires.get(wireId)?.from;
    const parent = parentId === undefined ? undefined : graph.nodes.get(parentId);
    if (!parent || parent.kind !== 'question' || !isLive(parent) || parent.currentVersionId === null) continue;
    const asked = versionOf(parent, parent.currentVersionId);
    if (!asked) continue;
    const recorded = recordedUpstreamParts(graph, asked);
    if (!recorded.complete) continue;
    const record = upstreamDelta({ nodeId: parent.id, versionId: asked.id }, recorded.parts, current);
    if (upstreamRecordSize(record) < upstreamRecordSize(best)) best = record;
    if (upstreamRecordSize(best) <= 1) break;
  }
  return best;
}

/**
 * Before `deletedId` goes: every version (on other nodes) based on one of its versions is re-based onto that
 * version's own base, with the same folded parts, so no recorded upstream is lost with the node. Returns the
 * nodes that changed.
 */
export function rebaseOffDeleted(graph: Graph, deletedId: string): QuestionNode[] {
  const changed: QuestionNode[] = [];
  for (const node of graph.nodes.values()) {
    if (node.kind !== 'question' || node.id === deletedId) continue;
    if (!node.versions.some((version) => version.upstream.base?.nodeId === deletedId)) continue;
    const versions = node.versions.map((version) => {
      const base = version.upstream.base;
      if (base?.nodeId !== deletedId) return version;
      const full = recordedUpstreamParts(graph, version).parts;
      const grandBase = versionOf(graph.nodes.get(deletedId), base.versionId)?.upstream.base ?? null;
      const grand =
        grandBase && grandBase.nodeId !== deletedId
          ? versionOf(graph.nodes.get(grandBase.nodeId), grandBase.versionId)
          : undefined;
      const grandParts = grand ? recordedUpstreamParts(graph, grand) : null;
      // Without a whole grandparent record the parts are stored in full, so they still fold back exactly.
      const upstream =
        grand && grandParts?.complete
          ? upstreamDelta({ nodeId: grandBase!.nodeId, versionId: grand.id }, grandParts.parts, full)
          : upstreamDelta(null, [], full);
      return { ...version, upstream };
    });
    changed.push({ ...node, versions });
  }
  return changed;
}
