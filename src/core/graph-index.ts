import type { Wire } from '../../protocol/index.ts';
import type { Graph } from './graph.ts';
import { RankHeap } from './rank-heap.ts';

/**
 * Integer adjacency (compressed rows) for the walks compile and fingerprints do on every call.
 * Walking `Map<string, …>` touches scattered memory per edge; on a few thousand nodes that is
 * 20–30× slower than these typed arrays. The index depends only on the wires and the ids and
 * creation times of nodes (which never change for an id), so it is cached per wire map and
 * survives every change that does not touch wires (edits, versions, archive, exclusions).
 */
export interface GraphIndex {
  ids: string[];
  indexOf: Map<string, number>;
  createdAt: Float64Array;
  /** Edges into node i are `inFrom[k]`, `inKind[k]` for k in [inStart[i], inStart[i+1]). */
  inStart: Int32Array;
  inFrom: Int32Array;
  inKind: Uint8Array;
  /** Edges out of node i are `outTo[k]`, `outKind[k]` for k in [outStart[i], outStart[i+1]). */
  outStart: Int32Array;
  outTo: Int32Array;
  outKind: Uint8Array;
}

export const SOLID = 0;
export const QUOTE = 1;
export const FULL = 2;

const cache = new WeakMap<ReadonlyMap<string, Wire>, GraphIndex>();

/** The index for `graph`, rebuilt when the wires changed or a needed node is missing. */
export function graphIndex(graph: Graph, needed?: string): GraphIndex {
  let index = cache.get(graph.wires);
  if (!index || (needed !== undefined && !index.indexOf.has(needed) && graph.nodes.has(needed))) {
    index = buildIndex(graph);
    cache.set(graph.wires, index);
  }
  return index;
}

function kindCode(wire: Wire): number {
  return wire.kind === 'solid' ? SOLID : wire.depth === 'quote' ? QUOTE : FULL;
}

function buildIndex(graph: Graph): GraphIndex {
  const ids = [...graph.nodes.keys()];
  const count = ids.length;
  const indexOf = new Map<string, number>();
  const createdAt = new Float64Array(count);
  ids.forEach((id, position) => {
    indexOf.set(id, position);
    createdAt[position] = graph.nodes.get(id)!.createdAt;
  });
  const edges = [...graph.wires.values()].filter((wire) => indexOf.has(wire.from) && indexOf.has(wire.to));
  const inStart = new Int32Array(count + 1);
  const outStart = new Int32Array(count + 1);
  for (const wire of edges) {
    const into = indexOf.get(wire.to)! + 1;
    const outOf = indexOf.get(wire.from)! + 1;
    inStart[into] = inStart[into]! + 1;
    outStart[outOf] = outStart[outOf]! + 1;
  }
  for (let position = 0; position < count; position += 1) {
    inStart[position + 1] = inStart[position + 1]! + inStart[position]!;
    outStart[position + 1] = outStart[position + 1]! + outStart[position]!;
  }
  const inFill = inStart.slice(0, count);
  const outFill = outStart.slice(0, count);
  const inFrom = new Int32Array(edges.length);
  const inKind = new Uint8Array(edges.length);
  const outTo = new Int32Array(edges.length);
  const outKind = new Uint8Array(edges.length);
  for (const wire of edges) {
    const from = indexOf.get(wire.from)!;
    const to = indexOf.get(wire.to)!;
    const kind = kindCode(wire);
    const inSlot = inFill[to]!;
    inFill[to] = inSlot + 1;
    inFrom[inSlot] = from;
    inKind[inSlot] = kind;
    const outSlot = outFill[from]!;
    outFill[from] = outSlot + 1;
    outTo[outSlot] = to;
    outKind[outSlot] = kind;
  }
  return { ids, indexOf, createdAt, inStart, inFrom, inKind, outStart, outTo, outKind };
}

/** Indices of every node reachable backwards over solid wires from `start` (excluding it). */
export function solidAncestors(index: GraphIndex, start: number, mark: Uint8Array): number[] {
  const found: number[] = [];
  const stack = [start];
  mark[start] = 1;
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let edge = index.inStart[node]!; edge < index.inStart[node + 1]!; edge += 1) {
      if (index.inKind[edge] !== SOLID) continue;
      const from = index.inFrom[edge]!;
      if (mark[from] === 1) continue;
      mark[from] = 1;
      found.push(from);
      stack.push(from);
    }
  }
  mark[start] = 0;
  return found;
}

/**
 * Topological order of `members` (all marked in `mark`) over solid wires among them, ready
 * nodes taken by creation time then id — the same order as `topologicalOrder` in walk.ts.
 */
export function solidTopologicalOrder(index: GraphIndex, members: readonly number[], mark: Uint8Array): number[] {
  const count = members.length;
  const sorted = [...members].sort((left, right) => {
    const time = index.createdAt[left]! - index.createdAt[right]!;
    if (time !== 0) return time;
    const leftId = index.ids[left]!;
    const rightId = index.ids[right]!;
    return leftId < rightId ? -1 : leftId > rightId ? 1 : 0;
  });
  // rank[node] = position in `sorted`, written for every member before it is read.
  const rank = scratch(index.ids.length).rank;
  for (let position = 0; position < count; position += 1) rank[sorted[position]!] = position;
  const pending = new Int32Array(count);
  for (let position = 0; position < count; position += 1) {
    const node = sorted[position]!;
    for (let edge = index.outStart[node]!; edge < index.outStart[node + 1]!; edge += 1) {
      if (index.outKind[edge] !== SOLID || mark[index.outTo[edge]!] !== 1) continue;
      const target = rank[index.outTo[edge]!]!;
      pending[target] = pending[target]! + 1;
    }
  }
  const heap = new RankHeap(count);
  for (let position = 0; position < count; position += 1) if (pending[position] === 0) heap.push(position);
  const order: number[] = [];
  while (heap.size > 0) {
    const position = heap.pop();
    const node = sorted[position]!;
    order.push(node);
    for (let edge = index.outStart[node]!; edge < index.outStart[node + 1]!; edge += 1) {
      if (index.outKind[edge] !== SOLID || mark[index.outTo[edge]!] !== 1) continue;
      const target = rank[index.outTo[edge]!]!;
      pending[target] = pending[target]! - 1;
      if (pending[target] === 0) heap.push(target);
    }
  }
  return order;
}

/**
 * Reusable buffers sized to the largest graph seen, so a full stale recompute over thousands of
 * nodes does not allocate a mark array per node. Users set marks and clear exactly the entries
 * they set before returning (the walks are synchronous and never nest while marks are held).
 */
let marks = new Uint8Array(0);
let ranks = new Int32Array(0);

export function scratch(size: number): { mark: Uint8Array; rank: Int32Array } {
  if (marks.length < size) {
    marks = new Uint8Array(size * 2);
    ranks = new Int32Array(size * 2);
  }
  return { mark: marks, rank: ranks };
}

export function clearMarks(mark: Uint8Array, members: readonly number[]): void {
  for (const member of members) mark[member] = 0;
}
