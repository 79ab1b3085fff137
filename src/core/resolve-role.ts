import type { CanvasNode } from '../../protocol/index.ts';
import type { Graph } from './graph.ts';
import { clearMarks, graphIndex, scratch, SOLID, solidAncestors, solidTopologicalOrder } from './graph-index.ts';
import { GraphError } from './graph-error.ts';
import { compareNodes } from './walk.ts';
import { wellFormed } from './well-formed.ts';

/** A role in force at a node: its text and the node that set it. */
export interface RoleSource {
  text: string;
  sourceId: string;
}

/**
 * C29: what role a node is asked under. `none`: no role. `role`: one role, first message of the request.
 * `conflict`: its parents bring different roles and the node has no valid pick; the node must ask.
 */
export type ResolvedRole =
  { kind: 'none' } | { kind: 'role'; role: RoleSource } | { kind: 'conflict'; candidates: RoleSource[] };

const NONE: ResolvedRole = { kind: 'none' };

/**
 * Rules (documented in README): a question whose role mode is `set` uses its own text (an empty text is no
 * role) and passes it on; `reset` uses none and passes none; `inherit` (or no setting) takes what its solid
 * parents pass — every kind of node passes on what it resolved, archived nodes too (archive hides content,
 * not wiring). Parents that pass the same text agree (the earliest source by creation time, then id, is
 * named); different texts are a conflict, settled only by `rolePick` naming one candidate's source node. A
 * node below an unsettled conflict inherits the conflict. Dashed wires never carry a role.
 */
export function resolveRole(graph: Graph, nodeId: string, memo?: Map<string, ResolvedRole>): ResolvedRole {
  const target = graph.nodes.get(nodeId);
  if (!target) throw new GraphError('not-found', `There is no node ${nodeId} on this canvas.`, { nodeId });
  const known = memo?.get(nodeId);
  if (known) return known;
  const own = ownRole(target);
  if (own) {
    memo?.set(nodeId, own);
    return own;
  }
  // Every compile and fingerprint asks this, so it walks the integer index compile already keeps (rebuilt
  // only when wires change), and a scope in which nobody sets a role — most canvases — builds nothing.
  const index = graphIndex(graph, nodeId);
  const self = index.indexOf.get(nodeId)!;
  const { mark } = scratch(index.ids.length);
  const scope = solidAncestors(index, self, mark);
  let order: number[] | null = null;
  try {
    if (scope.some((position) => ownRole(graph.nodes.get(index.ids[position]!)!) !== null))
      order = solidTopologicalOrder(index, scope, mark);
  } finally {
    clearMarks(mark, scope);
  }
  if (order === null) {
    memo?.set(nodeId, NONE);
    return NONE;
  }
  // Parents come before children in `order`, so each node combines roles already resolved.
  const resolved = memo ?? new Map<string, ResolvedRole>();
  for (const position of [...order, self]) {
    const id = index.ids[position]!;
    if (resolved.has(id)) continue;
    const node = graph.nodes.get(id)!;
    const passed: ResolvedRole[] = [];
    for (let edge = index.inStart[position]!; edge < index.inStart[position + 1]!; edge += 1)
      if (index.inKind[edge] === SOLID) passed.push(resolved.get(index.ids[index.inFrom[edge]!]!)!);
    resolved.set(id, ownRole(node) ?? combine(graph, node, passed));
  }
  return resolved.get(nodeId)!;
}

function ownRole(node: CanvasNode): ResolvedRole | null {
  if (node.kind !== 'question' || !node.role || node.role.mode === 'inherit') return null;
  if (node.role.mode === 'reset' || node.role.text.trim() === '') return NONE;
  return { kind: 'role', role: { text: wellFormed(node.role.text), sourceId: node.id } };
}

function combine(graph: Graph, node: CanvasNode, passed: ResolvedRole[]): ResolvedRole {
  const byText = new Map<string, RoleSource>();
  for (const item of passed) {
    const roles = item.kind === 'role' ? [item.role] : item.kind === 'conflict' ? item.candidates : [];
    for (const role of roles) {
      const known = byText.get(role.text);
      if (!known || earlier(graph, role.sourceId, known.sourceId)) byText.set(role.text, role);
    }
  }
  const candidates = [...byText.values()].sort((left, right) =>
    earlier(graph, left.sourceId, right.sourceId) ? -1 : 1,
  );
  if (candidates.length === 0) return NONE;
  // A parent with no role next to one with a role is not a disagreement: the role is inherited.
  if (candidates.length === 1) return { kind: 'role', role: candidates[0]! };
  const pick = node.kind === 'question' ? (node.rolePick ?? null) : null;
  const picked = candidates.find((candidate) => candidate.sourceId === pick);
  return picked ? { kind: 'role', role: picked } : { kind: 'conflict', candidates };
}

function earlier(graph: Graph, left: string, right: string): boolean {
  return compareNodes(graph.nodes.get(left)!, graph.nodes.get(right)!) < 0;
}
