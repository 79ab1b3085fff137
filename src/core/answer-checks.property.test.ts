/** Issue 31: checks and their results never change a request, a fingerprint or what is stale. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnswerCheck } from '../../protocol/index.ts';
import { applyChange } from './index.ts';
import { buildRequest } from './build-request.ts';
import { compile } from './compile.ts';
import { computeStaleFull } from './stale-tracker.ts';
import { CHECK_EVENT_OP, checkEventsFor } from './version-checks.ts';
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
  let scoredAnswers = 0;
  it('setting checks and recording their results (the edit scores every answer) changes no request hash, fingerprint or stale set', () => {
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
        }
        // The checks really are on the canvas, and results were recorded where there were answers to score.
        const questions = [...scored.nodes.values()].filter((node) => node.kind === 'question');
        for (const node of questions) expect(node.kind === 'question' && node.checks).toEqual(checks);
        // The edit scored the answers already there: one event per complete version × check that needs no model.
        const expected = questions.flatMap((node) =>
          node.kind === 'question' ? checkEventsFor(node, ...node.versions) : [],
        );
        const recorded = scored.events.filter((event) => event.op === CHECK_EVENT_OP);
        scoredAnswers += recorded.length;
        expect(recorded.map((event) => [event.objectId, event.meta])).toEqual(
          expected.map((event) => [event.objectId, event.meta]),
        );
        expect(observed(scored)).toEqual(before);
      }),
      { numRuns: 60 },
    );
    // The random canvases had answers to score (else the equality above would hold for nothing).
    expect(scoredAnswers).toBeGreaterThan(0);
  });
});
