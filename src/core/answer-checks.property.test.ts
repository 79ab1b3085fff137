/** Issue 31: checks and their results never change a request, a fingerprint or what is stale. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnswerCheck } from '../../protocol/index.ts';
import { applyChange, type GraphChange } from './index.ts';
import { buildRequest } from './build-request.ts';
import { compile } from './compile.ts';
import { computeStaleFull } from './stale-tracker.ts';
import { checkEventsFor } from './version-checks.ts';
import { buildGraph, compilable, specArbitrary } from '../../tests/support/random-canvas.ts';
import type { Graph } from './graph.ts';

const checkArbitrary: fc.Arbitrary<AnswerCheck> = fc.oneof(
  fc.record({ id: fc.constant('c'), kind: fc.constant('contains' as const), text: fc.string({ minLength: 1 }) }),
  fc.record({ id: fc.constant('n'), kind: fc.constant('not-contains' as const), text: fc.string({ minLength: 1 }) }),
  fc.record({
    id: fc.constant('r'),
    kind: fc.constant('regex' as const),
    pattern: fc.constantFrom('\\d+', 'a|b', '(x+)+'),
  }),
  fc.record({
    id: fc.constant('v'),
    kind: fc.constant('number' as const),
    value: fc.integer(),
    tolerance: fc.nat({ max: 5 }),
  }),
  fc.record({ id: fc.constant('j'), kind: fc.constant('json' as const), schema: fc.constant({ type: 'object' }) }),
  fc.record({ id: fc.constant('u'), kind: fc.constant('rubric' as const), rubric: fc.string({ minLength: 1 }) }),
);

let clock = 10_000_000;
let ids = 0;
const context = () => ({ now: (clock += 1), newId: () => `check-id-${(ids += 1)}` });

/** What a check must never move: every compilable node's request hash, and the stale state's sets and fingerprints. */
function observed(graph: Graph) {
  const state = computeStaleFull(graph);
  return {
    stale: [...state.stale].sort(),
    fingerprints: [...state.fingerprints].sort(),
    requests: compilable(graph).map((id) => buildRequest(compile(graph, id), { model: 'm' }).requestHash),
  };
}

describe('checks on random canvases', () => {
  it('setting checks and recording their results changes no request hash, fingerprint or stale set', () => {
    fc.assert(
      fc.property(specArbitrary, fc.array(checkArbitrary, { minLength: 1, maxLength: 6 }), (spec, drawn) => {
        const graph = buildGraph(spec);
        const before = observed(graph);
        const checks = drawn.map((check, index) => ({ ...check, id: `${check.id}${index}` }));
        let scored = graph;
        for (const node of graph.nodes.values()) {
          if (node.kind !== 'question') continue;
          const edited = applyChange(scored, { type: 'edit-node', nodeId: node.id, patch: { checks } }, context());
          expect(edited.ok).toBe(true);
          if (!edited.ok) return;
          scored = edited.value.graph;
          const withChecks = scored.nodes.get(node.id);
          if (withChecks?.kind !== 'question') continue;
          const events: GraphChange[] = withChecks.versions.flatMap((version) =>
            checkEventsFor(withChecks, version).map((event) => ({ type: 'record' as const, event })),
          );
          if (events.length === 0) continue;
          const recorded = applyChange(scored, { type: 'batch', changes: events }, context());
          expect(recorded.ok).toBe(true);
          if (recorded.ok) scored = recorded.value.graph;
        }
        // The checks really are on the canvas, and results were recorded where there were answers to score.
        const questions = [...scored.nodes.values()].filter((node) => node.kind === 'question');
        for (const node of questions) expect(node.kind === 'question' && node.checks).toEqual(checks);
        expect(observed(scored)).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });
});
