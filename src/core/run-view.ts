import type { CanvasNode, QuestionNode, RunTag, Version } from '../../protocol/index.ts';
import type { Graph } from './graph.ts';

/** The latest version of `node` a re-run named `runName` wrote, or null when the run has not reached it. */
export function runVersion(node: CanvasNode | undefined, runName: string): Version | null {
  if (node?.kind !== 'question') return null;
  for (let index = node.versions.length - 1; index >= 0; index -= 1) {
    const version = node.versions[index]!;
    if (version.run?.name === runName) return version;
  }
  return null;
}

/** The person's selected version of `node`, or null. */
export function selectedVersion(node: CanvasNode | undefined): Version | null {
  if (node?.kind !== 'question' || node.currentVersionId === null) return null;
  return node.versions.find((version) => version.id === node.currentVersionId) ?? null;
}

/** Every run name on the canvas, in the order their first versions appear. */
export function runNames(graph: Graph): string[] {
  const names = new Set<string>();
  for (const node of graph.nodes.values())
    if (node.kind === 'question') for (const version of node.versions) if (version.run) names.add(version.run.name);
  return [...names];
}

/**
 * Issue 31: the canvas as the re-run `runName` sees it: every question the run has answered reads as if its run
 * version were selected, every other node as the person left it. A re-run compiles each step from this view, so a
 * changed answer upstream propagates as it would have; the canvas itself (the person's selection) is never changed.
 */
export function runView(graph: Graph, runName: string): Graph {
  let nodes: Map<string, CanvasNode> | null = null;
  for (const [id, node] of graph.nodes) {
    const version = runVersion(node, runName);
    if (!version || (node as QuestionNode).currentVersionId === version.id) continue;
    nodes ??= new Map(graph.nodes);
    nodes.set(id, { ...(node as QuestionNode), currentVersionId: version.id });
  }
  return nodes ? { ...graph, nodes } : graph;
}

/**
 * What one step of a re-run compiles from: the run's view (`runView`) with the step's question pinned to the run's
 * model, so the request, its recall budget and its image rule follow the override as an ordinary ask would.
 */
export function runStepView(graph: Graph, nodeId: string, run: RunTag): Graph {
  const view = runView(graph, run.name);
  const node = view.nodes.get(nodeId);
  if (node?.kind !== 'question' || node.model === run.model) return view;
  const nodes = new Map(view.nodes);
  nodes.set(nodeId, { ...node, model: run.model });
  return { ...view, nodes };
}
