import fc from 'fast-check';
import type { CanvasDocument, CanvasNode, Wire } from '../../protocol/index.ts';
import {
  applyChange,
  emptyCanvasDocument,
  graphFromDocument,
  upstreamSnapshot,
  type Graph,
  type GraphChange,
} from '../../src/core/index.ts';

/**
 * Random canvases for the property tests (core and runtime): small DAGs of every node kind, some answered, some
 * stale, some archived. What is archived is decided here, by the spec, so a test can check a read path against
 * the generated data rather than against the predicate under test (`isLive`).
 */
export const HASH = (seed: number) => seed.toString(16).padStart(64, '0');
const KINDS = ['question', 'question', 'question', 'note', 'material', 'mirror'] as const;

export interface Spec {
  nodes: {
    kind: (typeof KINDS)[number];
    createdAt: number;
    archived: boolean;
    answered: boolean;
    autoRerun: boolean;
  }[];
  edges: { from: number; to: number; kind: 'solid' | 'quote' | 'full' }[];
}

/** Random DAGs: edges only go from a lower to a higher index, so every spec is acyclic. */
export const specArbitrary: fc.Arbitrary<Spec> = fc.integer({ min: 2, max: 10 }).chain((count) =>
  fc.record({
    nodes: fc.array(
      fc.record({
        kind: fc.constantFrom(...KINDS),
        createdAt: fc.integer({ min: 0, max: 4 }),
        archived: fc.boolean(),
        answered: fc.boolean(),
        autoRerun: fc.boolean(),
      }),
      { minLength: count, maxLength: count },
    ),
    edges: fc.uniqueArray(
      fc
        .record({
          a: fc.integer({ min: 0, max: count - 1 }),
          b: fc.integer({ min: 0, max: count - 1 }),
          kind: fc.constantFrom('solid', 'solid', 'quote', 'full'),
        })
        .filter(({ a, b }) => a !== b)
        .map(({ a, b, kind }) => ({
          from: Math.min(a, b),
          to: Math.max(a, b),
          kind: kind,
        })),
      { selector: (edge) => `${edge.from}-${edge.to}`, maxLength: count * 2 },
    ),
  }),
);

/** Text carries a per-node marker so a test can see exactly whose content reached a context. */
export function marker(index: number): string {
  return `<<node-${index}>>`;
}

function nodeOf(spec: Spec['nodes'][number], index: number): CanvasNode {
  const base = {
    id: `node-${index}`,
    createdAt: spec.createdAt,
    position: { x: index, y: 0 },
    size: null,
    archived: false,
    archivedAt: null,
    excludedParts: [],
  };
  const text = `text ${marker(index)}`;
  switch (spec.kind) {
    case 'question':
      return {
        ...base,
        kind: 'question',
        question: `question ${marker(index)}`,
        versions: [],
        currentVersionId: null,
        autoRerun: { enabled: spec.autoRerun, rounds: 2 },
        model: null,
        attachments: index % 2 === 0 ? [HASH((index / 2) % 2)] : [],
      };
    case 'note':
      return { ...base, kind: 'note', text };
    case 'material':
      return { ...base, kind: 'material', title: `title ${marker(index)}`, text, provenance: { type: 'pasted' } };
    case 'mirror':
      return {
        ...base,
        kind: 'mirror',
        source: {
          runner: 'codex',
          sessionId: 's',
          turnKey: `codex:s#${index}`,
          turnNumber: index + 1,
          question: `mirror question ${marker(index)}`,
          answer: `mirror answer ${marker(index)}`,
          model: null,
          at: null,
          steps: [
            {
              name: 'Edit',
              op: 'edit',
              inputSummary: `edit ${marker(index)}`,
              files: [`/w/${marker(index)}.ts`],
              resultSummary: '',
              isError: false,
            },
          ],
          delegatedBy: null,
        },
        question: `mirror question ${marker(index)}`,
        answer: `mirror answer ${marker(index)}`,
        includeExecution: index % 2 === 0,
      };
  }
}

function wireOf(edge: Spec['edges'][number], index: number): Wire {
  const base = { id: `wire-${index}`, from: `node-${edge.from}`, to: `node-${edge.to}`, createdAt: index };
  return edge.kind === 'solid' ? { ...base, kind: 'solid' } : { ...base, kind: 'dashed', depth: edge.kind };
}

/**
 * Builds the canvas: nodes and wires, then answers in index order (so each records the
 * fingerprint of its upstream at that moment), then archives. Answers given before an upstream
 * answer changes become stale, as on a real canvas.
 */
export function buildGraph(spec: Spec): Graph {
  const document: CanvasDocument = emptyCanvasDocument({
    id: 'c',
    name: 'random',
    workingDirectory: null,
    createdAt: 0,
  });
  document.nodes = spec.nodes.map(nodeOf);
  document.wires = spec.edges.map(wireOf);
  document.attachments = [0, 1].map((seed) => ({
    hash: HASH(seed),
    mediaType: 'image/png',
    name: `i${seed}.png`,
    byteLength: 1,
    dataBase64: 'AA==',
  }));
  let graph = graphFromDocument(document);
  let clock = 100;
  let counter = 0;
  const context = () => ({ now: clock++, newId: () => `gen-${counter++}` });
  const apply = (change: GraphChange) => {
    const result = applyChange(graph, change, context());
    if (!result.ok) throw result.error;
    graph = result.value.graph;
  };
  const askedQuestion = (id: string) => {
    const node = graph.nodes.get(id);
    return node?.kind === 'question' ? node.question : '';
  };
  spec.nodes.forEach((node, index) => {
    if (node.kind !== 'question' || !node.answered) return;
    const id = `node-${index}`;
    apply({
      type: 'add-version',
      nodeId: id,
      version: {
        text: `answer ${marker(index)}`,
        question: askedQuestion(id),
        model: 'm',
        requestHash: null,
        ...upstreamSnapshot(graph, id),
        origin: 'generated',
        status: 'complete',
        branchOf: null,
      },
    });
  });
  // Re-answer the first answered node after everything, so some downstream answers go stale.
  const first = spec.nodes.findIndex((node) => node.kind === 'question' && node.answered);
  if (first >= 0) {
    const id = `node-${first}`;
    apply({
      type: 'add-version',
      nodeId: id,
      version: {
        text: `answer again ${marker(first)}`,
        question: askedQuestion(id),
        model: 'm',
        requestHash: null,
        ...upstreamSnapshot(graph, id),
        origin: 'generated',
        status: 'complete',
        branchOf: null,
      },
    });
  }
  spec.nodes.forEach((node, index) => {
    if (node.archived) apply({ type: 'archive', nodeId: `node-${index}` });
  });
  return graph;
}

export function compilable(graph: Graph): string[] {
  return [...graph.nodes.values()]
    .filter((node) => node.kind === 'question' || node.kind === 'mirror')
    .map((node) => node.id);
}

export function shuffled<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, index) => ({ item, key: keys[index % Math.max(1, keys.length)]! * 1000 + index }))
    .sort((left, right) => left.key - right.key)
    .map(({ item }) => item);
}

/** The ids the spec archives: read from the generated data, never from `isLive`. */
export function archivedInSpec(spec: Spec): Set<string> {
  return new Set(spec.nodes.flatMap((node, index) => (node.archived ? [`node-${index}`] : [])));
}
