/** Incremental staleness on random change sequences equals a full recompute. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChange } from './apply-change.ts';
import type { GraphChange } from './changes.ts';
import { compile } from './compile.ts';
import { upstreamFingerprint } from './fingerprint.ts';
import { documentFromGraph, graphFromDocument, type Graph } from './graph.ts';
import { canonicalJson, hashCanonical, sha256Hex } from './hashing.ts';
import { shownStale } from './shown-stale.ts';
import { computeStaleFull, StaleTracker } from './stale-tracker.ts';
import { buildGraph, compilable, HASH, specArbitrary } from '../../tests/support/random-canvas.ts';

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
