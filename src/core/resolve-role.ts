import type { CanvasNode } from '../../protocol/index.ts';
import { incomingWires, type Graph } from './graph.ts';
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
export function resolveRole(graph: Graph, nodeId: string, memo = new Map<string, ResolvedRole>()): ResolvedRole {
  const target = graph.nodes.get(nodeId);
  if (!target) throw new GraphError('not-found', `There is no node ${nodeId} on this canvas.`, { nodeId });
  // Iterative post-order so a long chain cannot overflow the stack.
  const stack: { id: string; expanded: boolean }[] = [{ id: nodeId, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (memo.has(top.id)) {
      stack.pop();
      continue;
    }
    const node = graph.nodes.get(top.id)!;
    const own = ownRole(node);
    if (own) {
      memo.set(top.id, own);
      stack.pop();
      continue;
    }
    const parents = solidParents(graph, top.id);
    if (!top.expanded) {
      top.expanded = true;
      for (const parent of parents) if (!memo.has(parent)) stack.push({ id: parent, expanded: false });
      continue;
    }
    stack.pop();
    memo.set(
      top.id,
      combine(
        graph,
        node,
        parents.map((parent) => memo.get(parent)!),
      ),
    );
  }
  return memo.get(nodeId)!;
}

function ownRole(node: CanvasNode): ResolvedRole | null {
  if (node.kind !== 'question' || !node.role || node.role.mode === 'inherit') return null;
  if (node.role.mode === 'reset' || node.role.text.trim() === '') return NONE;
  return { kind: 'role', role: { text: wellFormed(node.role.text), sourceId: node.id } };
}

function solidParents(graph: Graph, nodeId: string): string[] {
  const parents: string[] = [];
  for (const wireId of incomingWires(graph, nodeId)) {
    const wire = graph.wires.get(wireId)!;
    if (wire.kind === 'solid' && graph.nodes.has(wire.from)) parents.push(wire.from);
  }
  return parents;
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
