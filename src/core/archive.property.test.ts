/** C3 on random DAGs: no archived node reaches any read path of the core. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRequest } from './build-request.ts';
import { compile } from './compile.ts';
import { buildContextBundle } from './context-bundle.ts';
import { upstreamParts } from './fingerprint.ts';
import { canonicalJson } from './hashing.ts';
import { rerunAllowed } from './rerun-allowed.ts';
import { autoRerunWave, replayOrder, replayWave } from './rerun-wave.ts';
import { askCanvasRequest } from './ask-canvas/index.ts';
import { shownStale } from './shown-stale.ts';
import { computeStaleFull } from './stale-tracker.ts';
import { archivedInSpec, buildGraph, compilable, marker, specArbitrary } from '../../tests/support/random-canvas.ts';

describe('archive on random DAGs', () => {
  it('never lets an archived node reach any read path', () => {
    fc.assert(
      fc.property(specArbitrary, (spec) => {
        const graph = buildGraph(spec);
        // What is archived comes from the generated data, not from the predicate: a broken `isLive` fails here.
        const archivedIds = archivedInSpec(spec);
        const markers = [...archivedIds].map((id) => marker(Number(id.slice('node-'.length))));
        const leaks = (text: string) => markers.filter((item) => text.includes(item));
        const state = computeStaleFull(graph);
        const shown = shownStale(graph, state);
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
