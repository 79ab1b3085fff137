import { migrateCanvasDocument, type CanvasLoadError } from '../../protocol/index.ts';
import type { CanvasDocument } from '../../protocol/index.ts';
import { verifyChain } from './event-log.ts';
import { graphFromDocument, type Graph } from './graph.ts';
import { failure, success, type Result } from './result.ts';
import { topologicalOrder } from './walk.ts';

/**
 * Migrates, validates and checks a canvas's integrity (unique ids, wires between existing
 * nodes, no cycle), then builds the graph. Any refusal names what is wrong; nothing is repaired
 * silently.
 */
export interface LoadedCanvas {
  graph: Graph;
  document: CanvasDocument;
  /** Names of the migration steps applied, oldest first. */
  applied: string[];
  /**
   * Index of the first event that fails `verifyChain`, or null. A broken chain does not stop
   * the canvas from loading (nothing is lost); the event log view shows where it breaks.
   */
  brokenEventAt: number | null;
}

export function loadCanvas(input: unknown): Result<LoadedCanvas, CanvasLoadError> {
  const migrated = migrateCanvasDocument(input);
  if (!migrated.ok) return failure(migrated.error);
  const document = migrated.document;
  const problem = integrityProblem(document);
  if (problem)
    return failure({ code: 'corrupt', message: `The canvas file is damaged: ${problem.message}`, path: problem.path });
  return success({
    graph: graphFromDocument(document),
    document,
    applied: migrated.applied,
    brokenEventAt: verifyChain(document.events),
  });
}

function integrityProblem(document: CanvasDocument): { message: string; path: string } | null {
  const ids = new Set<string>();
  for (const [index, node] of document.nodes.entries()) {
    if (ids.has(node.id)) return { message: `two nodes share the id ${node.id}`, path: `nodes.${index}.id` };
    ids.add(node.id);
  }
  const wireIds = new Set<string>();
  const pairs = new Set<string>();
  for (const [index, wire] of document.wires.entries()) {
    if (wireIds.has(wire.id)) return { message: `two wires share the id ${wire.id}`, path: `wires.${index}.id` };
    wireIds.add(wire.id);
    if (!ids.has(wire.from))
      return { message: `wire ${wire.id} starts at a missing node ${wire.from}`, path: `wires.${index}.from` };
    if (!ids.has(wire.to))
      return { message: `wire ${wire.id} ends at a missing node ${wire.to}`, path: `wires.${index}.to` };
    const pair = `${wire.from}\u0000${wire.to}`;
    if (pairs.has(pair)) return { message: `${wire.from} is wired into ${wire.to} twice`, path: `wires.${index}` };
    pairs.add(pair);
  }
  const graph = graphFromDocument(document);
  if (topologicalOrder(graph, ids, 'all').length !== ids.size)
    return { message: 'its wires form a cycle', path: 'wires' };
  return null;
}
