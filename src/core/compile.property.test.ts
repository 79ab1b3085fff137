/** Compile on random DAGs: determinism, fingerprints, chain order, attachments, the document round trip. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChange } from './apply-change.ts';
import { compile } from './compile.ts';
import { upstreamFingerprint } from './fingerprint.ts';
import { documentFromGraph, graphFromDocument, type Graph } from './graph.ts';
import { canonicalJson, hashCanonical, sha256Hex } from './hashing.ts';
import { partitionUpstream } from './partition.ts';
import { ancestors, topologicalOrder } from './walk.ts';
import { shownStale } from './shown-stale.ts';
import { computeStaleFull } from './stale-tracker.ts';
import { archivedInSpec, buildGraph, compilable, shuffled, specArbitrary } from '../../tests/support/random-canvas.ts';

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
        const archived = archivedInSpec(spec);
        for (const id of compilable(graph)) {
          const expected = topologicalOrder(graph, ancestors(graph, id, 'solid'), 'solid').filter(
            (item) => !archived.has(item) && graph.nodes.get(item)!.kind !== 'material',
          );
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
});
