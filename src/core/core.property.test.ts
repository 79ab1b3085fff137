import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanvasDocument, CanvasNode, Wire } from '../../protocol/canvas-document.ts';
import { applyChange } from './apply-change.ts';
import { buildRequest } from './build-request.ts';
import type { GraphChange } from './changes.ts';
import { compile } from './compile.ts';
import { buildContextBundle } from './context-bundle.ts';
import { upstreamFingerprint, upstreamParts, upstreamSnapshot } from './fingerprint.ts';
import { documentFromGraph, emptyCanvasDocument, graphFromDocument, type Graph } from './graph.ts';
import { canonicalJson, hashCanonical, sha256Hex } from './hashing.ts';
import { isLive } from './live.ts';
import { partitionUpstream } from './partition.ts';
import { ancestors, topologicalOrder } from './walk.ts';
import { rerunAllowed } from './rerun-allowed.ts';
import { autoRerunWave, replayOrder, replayWave } from './rerun-wave.ts';
import { askCanvasRequest } from './ask-canvas/index.ts';
import { shownStale } from './shown-stale.ts';
import { computeStaleFull, StaleTracker } from './stale-tracker.ts';

const HASH = (seed: number) => seed.toString(16).padStart(64, '0');
const KINDS = ['question', 'question', 'question', 'note', 'material', 'mirror'] as const;

interface Spec {
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
const specArbitrary: fc.Arbitrary<Spec> = fc.integer({ min: 2, max: 10 }).chain((count) =>
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
function marker(index: number): string {
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
function buildGraph(spec: Spec): Graph {
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

function compilable(graph: Graph): string[] {
  return [...graph.nodes.values()]
    .filter((node) => node.kind === 'question' || node.kind === 'mirror')
    .map((node) => node.id);
}

function shuffled<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, index) => ({ item, key: keys[index % Math.max(1, keys.length)]! * 1000 + index }))
    .sort((left, right) => left.key - right.key)
    .map(({ item }) => item);
}

describe('compile properties on random DAGs', () => {
  it('is deterministic and independent of the insertion order of nodes and wires', () => {
    fc.assert(
      fc.property(
        specArbitrary,
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 20 }),
        (spec, keys) => {
          const graph = buildGraph(spec);
          const document = documentFromGraph(graph);
          const reordered = graphFromDocument({
            ...document,
            nodes: shuffled(document.nodes, keys),
            wires: shuffled(document.wires, [...keys].reverse()),
          });
          const stale = shownStale(graph, computeStaleFull(graph));
          const staleReordered = shownStale(reordered, computeStaleFull(reordered));
          expect([...staleReordered].sort()).toEqual([...stale].sort());
          for (const id of compilable(graph)) {
            const once = canonicalJson(compile(graph, id, { stale }));
            expect(canonicalJson(compile(graph, id, { stale }))).toBe(once);
            expect(canonicalJson(compile(reordered, id, { stale: staleReordered }))).toBe(once);
            expect(upstreamFingerprint(reordered, id)).toBe(upstreamFingerprint(graph, id));
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('fingerprints are the hash of the compiled bytes with the node’s own content blanked', () => {
    fc.assert(
      fc.property(specArbitrary, (spec) => {
        const graph = buildGraph(spec);
        for (const id of compilable(graph)) {
          const messages = compile(graph, id).messages.slice(0, -1);
          messages.push({ role: 'user', content: [{ type: 'text', text: '' }] });
          const digests = messages.map((message) => [
            message.role,
            message.content.map((part) =>
              part.type === 'text' ? sha256Hex(part.text) : `image:${part.hash}:${part.mediaType}`,
            ),
          ]);
          expect(upstreamFingerprint(graph, id)).toBe(
            hashCanonical({ format: 'weft.fingerprint', version: 1, messages: digests }),
          );
        }
      }),
      { numRuns: 60 },
    );
  });

  it('orders the chain like the reference topological sort', () => {
    fc.assert(
      fc.property(specArbitrary, (spec) => {
        const graph = buildGraph(spec);
        for (const id of compilable(graph)) {
          const expected = topologicalOrder(graph, ancestors(graph, id, 'solid'), 'solid').filter((item) => {
            const node = graph.nodes.get(item)!;
            return isLive(node) && node.kind !== 'material';
          });
          expect(partitionUpstream(graph, id).chain.map((node) => node.id)).toEqual(expected);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('shows each attachment once, and leaves out exactly the excluded part or node, nothing else', () => {
    const partIds = (graph: Graph, id: string) => compile(graph, id).sources.flatMap((source) => source.contentPartIds);
    const textPartIds = (graph: Graph, id: string) => {
      const compiled = compile(graph, id);
      return compiled.sources.flatMap((source, index) =>
        source.contentPartIds.filter((_, part) => compiled.messages[index]!.content[part]!.type === 'text'),
      );
    };
    fc.assert(
      fc.property(specArbitrary, (spec) => {
        const graph = buildGraph(spec);
        for (const id of compilable(graph)) {
          const before = partIds(graph, id);
          const beforeText = textPartIds(graph, id);
          // Attachments are de-duplicated by hash across the whole context.
          const images = compile(graph, id).messages.flatMap((message) =>
            message.content.flatMap((part) => (part.type === 'image' ? [part.hash] : [])),
          );
          expect(new Set(images).size).toBe(images.length);
          const owners = [...new Set(compile(graph, id).sources.map((source) => source.nodeId))].filter(
            (owner) => owner !== id,
          );
          // The target's own question is never excluded; every other part and every upstream node can be.
          for (const excluded of [...new Set(before)].filter((part) => part !== `${id}:question`).concat(owners)) {
            const result = applyChange(
              graph,
              { type: 'exclude-part', nodeId: id, partId: excluded },
              { now: 1_000_000, newId: () => 'x' },
            );
            if (!result.ok) throw result.error;
            const after = partIds(result.value.graph, id);
            const gone = (part: string) => part === excluded || part.startsWith(`${excluded}:`);
            expect(after.filter(gone)).toEqual([]);
            // Every other text part stays (an image may move to its next occurrence, so only texts are compared).
            expect(textPartIds(result.value.graph, id)).toEqual(beforeText.filter((part) => !gone(part)));
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('round-trips graph ⇄ document byte-identically', () => {
    fc.assert(
      fc.property(specArbitrary, (spec) => {
        const document = documentFromGraph(buildGraph(spec));
        expect(canonicalJson(documentFromGraph(graphFromDocument(document)))).toBe(canonicalJson(document));
      }),
      { numRuns: 50 },
    );
  });

  it('never lets an archived node reach any read path', () => {
    fc.assert(
      fc.property(specArbitrary, (spec) => {
        const graph = buildGraph(spec);
        const archived = [...graph.nodes.values()].filter((node) => !isLive(node));
        const markers = archived.map((node) => marker(Number(node.id.slice('node-'.length))));
        const leaks = (text: string) => markers.filter((item) => text.includes(item));
        const state = computeStaleFull(graph);
        const shown = shownStale(graph, state);
        const archivedIds = new Set(archived.map((node) => node.id));
        // The stale set, the shown set, Replay and the fingerprints.
        for (const id of state.stale) expect(archivedIds.has(id)).toBe(false);
        for (const id of state.fingerprints.keys()) expect(archivedIds.has(id)).toBe(false);
        for (const id of replayOrder(graph, new Set([...graph.nodes.keys()]))) expect(archivedIds.has(id)).toBe(false);
        for (const id of replayOrder(graph, shown)) expect(archivedIds.has(id)).toBe(false);
        for (const step of replayWave(graph, new Set(graph.nodes.keys())))
          expect(archivedIds.has(step.nodeId)).toBe(false);
        for (const node of graph.nodes.values()) {
          // Auto-rerun after any completion, and a manual rerun.
          for (const step of autoRerunWave(graph, node.id)) expect(archivedIds.has(step.nodeId)).toBe(false);
          if (archivedIds.has(node.id)) expect(rerunAllowed(node).ok).toBe(false);
          // Ask the canvas (C17), focused on any node: no layer and no byte of the request names an archived one.
          const asked = askCanvasRequest(graph, {
            question: 'q',
            focusId: node.id,
            turns: [],
            stale: shown,
            model: 'm',
          });
          for (const layer of Object.values(asked.layers))
            for (const id of layer) expect(archivedIds.has(id)).toBe(false);
          expect(leaks(canonicalJson(asked.request))).toEqual([]);
        }
        for (const id of compilable(graph)) {
          if (archivedIds.has(id)) continue;
          // The compiled context (preview and every request path), its sources, the request,
          // upstream parts and the bundle.
          const compiled = compile(graph, id, { stale: shown });
          expect(leaks(JSON.stringify(compiled.messages))).toEqual([]);
          for (const source of compiled.sources) expect(archivedIds.has(source.nodeId)).toBe(false);
          const built = buildRequest(compiled, { model: 'm', memoryBlock: 'memory', recallBlock: 'recall' });
          expect(leaks(canonicalJson(built.request))).toEqual([]);
          for (const part of upstreamParts(graph, id)) expect(archivedIds.has(part.nodeId)).toBe(false);
          expect(leaks(JSON.stringify(upstreamParts(graph, id)))).toEqual([]);
          expect(leaks(JSON.stringify(buildContextBundle(graph, compiled, built, 1)))).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });
});

const changeArbitrary = (count: number): fc.Arbitrary<GraphChange> => {
  const node = fc.integer({ min: 0, max: count - 1 }).map((index) => `node-${index}`);
  return fc.oneof(
    fc.record({
      type: fc.constant('edit-node' as const),
      nodeId: node,
      patch: fc.record({ question: fc.string({ maxLength: 4 }) }),
    }),
    fc.record({
      type: fc.constant('edit-node' as const),
      nodeId: node,
      patch: fc.record({ text: fc.string({ maxLength: 4 }) }),
    }),
    fc.record({ type: fc.constantFrom('archive' as const, 'unarchive' as const), nodeId: node }),
    // C29: roles set, reset and picked change what the node and its descendants are asked under.
    fc.record({
      type: fc.constant('edit-node' as const),
      nodeId: node,
      patch: fc.record({
        role: fc.record({
          mode: fc.constantFrom('inherit' as const, 'set' as const, 'reset' as const),
          text: fc.constantFrom('R1', 'R2', ''),
        }),
      }),
    }),
    fc.record({ type: fc.constant('edit-node' as const), nodeId: node, patch: fc.record({ rolePick: node }) }),
    fc.record({ type: fc.constant('delete-node' as const), nodeId: node }),
    fc.record({ type: fc.constant('wire' as const), from: node, to: node, kind: fc.constant('solid' as const) }),
    fc.record({
      type: fc.constant('wire' as const),
      from: node,
      to: node,
      kind: fc.constant('dashed' as const),
      depth: fc.constantFrom('quote' as const, 'full' as const),
    }),
    fc.record({
      type: fc.constant('unwire' as const),
      wireId: fc.integer({ min: 0, max: count * 2 }).map((index) => `wire-${index}`),
    }),
    fc.record({
      type: fc.constant('set-wire-kind' as const),
      wireId: fc.integer({ min: 0, max: count * 2 }).map((index) => `wire-${index}`),
      kind: fc.constant('dashed' as const),
      depth: fc.constantFrom('quote' as const, 'full' as const),
    }),
    fc.record({ type: fc.constant('exclude-part' as const), nodeId: node, partId: node.map((id) => `${id}:answer`) }),
    fc.record({
      type: fc.constantFrom('exclude-part' as const, 'include-part' as const),
      nodeId: node,
      partId: fc.oneof(node, fc.constant(`attachment:${HASH(0)}`)),
    }),
    fc.record({
      type: fc.constant('set-wire-kind' as const),
      wireId: fc.integer({ min: 0, max: count * 2 }).map((index) => `wire-${index}`),
      kind: fc.constant('solid' as const),
    }),
    // A question names an image whose record arrives later (its media type changes what descendants see).
    {
      weight: 3,
      arbitrary: fc.record({
        type: fc.constant('edit-node' as const),
        nodeId: node,
        patch: fc.constant({ attachments: [HASH(2)] }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.constant({
        type: 'add-attachment' as const,
        attachment: { hash: HASH(2), mediaType: 'image/jpeg', name: 'late.jpg', byteLength: 1, dataBase64: 'AA==' },
      }),
    },
    // Marker: `version: true` answers the node's current question, `false` an older wording.
    fc.record({
      type: fc.constant('add-version' as const),
      nodeId: node,
      version: fc.boolean(),
    }) as unknown as fc.Arbitrary<GraphChange>,
    // Marker: a judge verdict on the node's current fingerprint (known at run time).
    fc.record({
      type: fc.constant('set-dismissal' as const),
      nodeId: node,
      fingerprint: fc.constant(''),
      probability: fc.constantFrom(0.1, 0.9),
      reason: fc.constant('judged'),
    }),
    // Marker for "select the node's first version" (its id is only known at run time).
    fc.record({ type: fc.constant('select-version' as const), nodeId: node, versionId: fc.constant('') }),
  ) as fc.Arbitrary<GraphChange>;
};

describe('incremental staleness', () => {
  it('equals a full recompute after random change sequences', () => {
    fc.assert(
      fc.property(
        specArbitrary.chain((spec) =>
          fc.tuple(fc.constant(spec), fc.array(changeArbitrary(spec.nodes.length), { maxLength: 12 })),
        ),
        ([spec, changes]) => {
          let graph = buildGraph(spec);
          const tracker = new StaleTracker(graph);
          const byDiff = new StaleTracker(graph);
          let clock = 10_000;
          for (const raw of changes) {
            // An answer records the fingerprint of its upstream now, as dispatch does.
            const first = graph.nodes.get(raw.type === 'select-version' ? raw.nodeId : '');
            const change: GraphChange =
              raw.type === 'select-version'
                ? {
                    type: 'select-version',
                    nodeId: raw.nodeId,
                    versionId: first?.kind === 'question' ? (first.versions[0]?.id ?? 'none') : 'none',
                  }
                : raw.type === 'set-dismissal'
                  ? { ...raw, fingerprint: tracker.fingerprints.get(raw.nodeId) ?? HASH(9) }
                  : raw.type === 'add-version'
                    ? {
                        type: 'add-version',
                        nodeId: raw.nodeId,
                        version: {
                          text: 'regenerated',
                          question: (raw.version as unknown as boolean)
                            ? questionOf(graph, raw.nodeId)
                            : 'an older wording',
                          model: 'm',
                          requestHash: null,
                          ...safeSnapshot(graph, raw.nodeId),
                          origin: 'generated',
                          status: 'complete',
                          branchOf: null,
                        },
                      }
                    : raw;
            const result = applyChange(graph, change, { now: clock++, newId: () => `id-${clock++}` });
            if (!result.ok) continue;
            graph = result.value.graph;
            tracker.update(graph, result.value.touched);
            byDiff.update(graph);
            // A fresh graph from the document has fresh caches (wire index, text digests): the
            // cached state after changes must agree with it.
            const fresh = graphFromDocument(documentFromGraph(graph));
            const full = computeStaleFull(fresh);
            for (const id of compilable(graph)) {
              expect(canonicalJson(compile(graph, id, { stale: full.stale }))).toBe(
                canonicalJson(compile(fresh, id, { stale: full.stale })),
              );
              // The prefix shortcut agrees with the compiled bytes, roles (C29) included.
              expect(full.fingerprints.get(id) ?? upstreamFingerprint(fresh, id)).toBe(bytesFingerprint(fresh, id));
            }
            expect([...tracker.stale].sort()).toEqual([...full.stale].sort());
            expect([...tracker.questionEdited].sort()).toEqual([...full.questionEdited].sort());
            expect(new Map([...tracker.fingerprints].sort())).toEqual(new Map([...full.fingerprints].sort()));
            expect([...byDiff.stale].sort()).toEqual([...full.stale].sort());
            expect([...byDiff.questionEdited].sort()).toEqual([...full.questionEdited].sort());
            // The one shown set: incremental equals full, and no dismissal hides a person's own edit.
            const shown = shownStale(graph, tracker);
            expect([...shown].sort()).toEqual([...shownStale(fresh, full)].sort());
            for (const id of full.questionEdited) expect(shown.has(id)).toBe(true);
            for (const id of full.stale) {
              const node = graph.nodes.get(id);
              const answered =
                node?.kind === 'question' ? node.versions.find((v) => v.id === node.currentVersionId) : null;
              expect(full.questionEdited.has(id)).toBe(answered?.question !== questionOf(graph, id));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** The fingerprint recomputed from compile's own bytes, the own question blanked (the C6 definition). */
function bytesFingerprint(graph: Graph, nodeId: string): string {
  const messages = compile(graph, nodeId).messages.slice(0, -1);
  messages.push({ role: 'user', content: [{ type: 'text', text: '' }] });
  const digests = messages.map((message) => [
    message.role,
    message.content.map((part) =>
      part.type === 'text' ? sha256Hex(part.text) : `image:${part.hash}:${part.mediaType}`,
    ),
  ]);
  return hashCanonical({ format: 'weft.fingerprint', version: 1, messages: digests });
}

function questionOf(graph: Graph, nodeId: string): string {
  const node = graph.nodes.get(nodeId);
  return node?.kind === 'question' ? node.question : '';
}

function safeSnapshot(
  graph: Graph,
  nodeId: string,
): { upstreamFingerprint: string; upstream: { base: null; parts: []; removed: [] } } {
  const node = graph.nodes.get(nodeId);
  if (!node || (node.kind !== 'question' && node.kind !== 'mirror'))
    return { upstreamFingerprint: HASH(7), upstream: { base: null, parts: [], removed: [] } };
  return { upstreamFingerprint: upstreamFingerprint(graph, nodeId), upstream: { base: null, parts: [], removed: [] } };
}
