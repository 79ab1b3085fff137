// Chains of answered questions with ~1 KB answers, every answer fresh, built the way the app builds them (applyChange,
// an upstream snapshot per answer), a row of chains per batch: `bench:ui`'s canvases and tests of large canvases.
import {
  applyChange,
  documentFromGraph,
  emptyGraph,
  plaqueFrom,
  ruleLadder,
  upstreamSnapshot,
  jsHashPort,
  type Graph,
  type GraphChange,
  type HashPort,
} from '../../src/core/index.ts';
import type { CanvasDocument } from '../../protocol/index.ts';

const ANSWER = (label: string) =>
  `An answer for ${label}. `.padEnd(1000, 'The step above holds because each premise was checked against the source. ');

/**
 * `chains` columns of `depth` answered questions (solid wires down each column). `plaques`: each answer also gets the
 * display-only plaque (C32) map mode shows, as the rule fallback would write it. `hash`: the SHA-256 the fingerprints use.
 */
export function chainCanvas(
  id: string,
  chains: number,
  depth: number,
  options: { plaques?: boolean; hash?: HashPort } = {},
): CanvasDocument {
  let clock = 1_760_000_000_000;
  let counter = 0;
  const context = () => ({ now: (clock += 1000), newId: () => `n${(counter += 1).toString(36)}` });
  let graph: Graph = emptyGraph({
    id,
    name: `Benchmark: ${chains * depth} nodes`,
    workingDirectory: null,
    createdAt: clock,
  });
  const apply = (change: GraphChange) => {
    const result = applyChange(graph, change, context());
    if (!result.ok) throw new Error(result.error.message);
    graph = result.value.graph;
  };
  const idOf = (column: number, row: number) => `${id}-${column}-${row}`;
  const question = (column: number, row: number) => `Question ${column}.${row}: what follows from the step above?`;
  const nodes: GraphChange[] = [];
  for (let column = 0; column < chains; column += 1)
    for (let row = 0; row < depth; row += 1) {
      nodes.push({
        type: 'add-node',
        node: {
          id: idOf(column, row),
          kind: 'question',
          question: question(column, row),
          position: { x: column * 340, y: row * 210 },
        },
      });
      if (row > 0) nodes.push({ type: 'wire', from: idOf(column, row - 1), to: idOf(column, row), kind: 'solid' });
    }
  apply({ type: 'batch', changes: nodes });
  for (let row = 0; row < depth; row += 1) {
    const versions: GraphChange[] = [];
    for (let column = 0; column < chains; column += 1) {
      const nodeId = idOf(column, row);
      const snapshot = upstreamSnapshot(graph, nodeId, options.hash ?? jsHashPort);
      versions.push({
        type: 'add-version',
        nodeId,
        select: true,
        version: {
          ...(options.plaques ? { id: `v-${nodeId}` } : {}),
          text: ANSWER(`${column}.${row}`),
          question: question(column, row),
          model: 'offline/receipt',
          requestHash: null,
          upstreamFingerprint: snapshot.upstreamFingerprint,
          upstream: snapshot.upstream,
          origin: 'demo',
          status: 'complete',
          branchOf: null,
        },
      });
    }
    apply({ type: 'batch', changes: versions });
  }
  if (options.plaques) apply({ type: 'batch', changes: plaqueChanges(graph) });
  return documentFromGraph(graph);
}

/** One plaque per answer, written by the rule fallback as the app writes it without a model. */
function plaqueChanges(graph: Graph): GraphChange[] {
  const changes: GraphChange[] = [];
  for (const node of graph.nodes.values()) {
    const version = node.kind === 'question' ? node.versions.find((item) => item.id === node.currentVersionId) : null;
    const ladder = version ? ruleLadder(version.question, version.text) : null;
    if (!version || !ladder) continue;
    changes.push({
      type: 'set-plaque',
      nodeId: node.id,
      versionId: version.id,
      plaque: plaqueFrom(ladder, { model: null, writtenAt: 1 }),
    });
  }
  return changes;
}
