import { graphFromDocument, rerunPlan } from '../../src/core/index.ts';
import { threadsCanvas } from './core-canvas.ts';

/**
 * Issue 31, `rerun_plan_5000_ms`: "Re-run under…" planned on a subgraph of `questions` questions of a canvas in
 * the shape a large canvas takes in use (`threadsCanvas`: branching threads of 10–40 answered questions, materials,
 * quotes across threads): dependency order, each step compiled for its token count, priced. The median of `rounds`
 * plans after `warmup` (the first plan also builds the wire index and renders every text).
 */
export function rerunPlanFigure(
  questions: number,
  rounds: number,
  warmup: number,
): { questions: number; steps: number; ms: number } {
  // Enough nodes that the canvas holds `questions` questions besides its materials.
  const graph = graphFromDocument(threadsCanvas(Math.ceil(questions * 1.1)).document);
  const selection = new Set(
    [...graph.nodes.values()]
      .filter((node) => node.kind === 'question')
      .slice(0, questions)
      .map((node) => node.id),
  );
  if (selection.size !== questions) throw new Error(`the canvas holds ${selection.size} questions, not ${questions}`);
  const times: number[] = [];
  let steps = 0;
  for (let round = 0; round < warmup + rounds; round += 1) {
    const started = performance.now();
    const plan = rerunPlan(graph, selection, { model: 'bench/other', runName: `run ${round}`, pricePerMTokIn: 3 });
    const elapsed = performance.now() - started;
    steps = plan.count;
    if (round >= warmup) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { questions, steps, ms: times[Math.floor(times.length / 2)]! };
}
