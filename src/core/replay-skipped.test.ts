import { describe, expect, it } from 'vitest';
import { replayEstimate } from './replay-estimate.ts';
import { autoRerunWave, replayWave } from './rerun-wave.ts';
import { TestCanvas } from './test-canvas.ts';

/** first → second → third (stale after first's new answer), third → reviewer (auto-rerun); aside → other (stale). */
function canvasWithStaleChain() {
  const canvas = new TestCanvas();
  const ids = ['first', 'second', 'third'].map((name) => canvas.addQuestion(name, { id: name }));
  canvas.wire(ids[0]!, ids[1]!);
  canvas.wire(ids[1]!, ids[2]!);
  for (const id of ids) canvas.answer(id, `${id} answer`);
  const reviewer = canvas.addQuestion('reviewer', { id: 'reviewer', autoRerun: 1 });
  canvas.wire(ids[2]!, reviewer);
  canvas.answer(ids[0]!, 'first answer, regenerated');
  return { canvas, second: ids[1]!, third: ids[2]!, reviewer };
}

describe('Replay with unticked nodes', () => {
  it('lists each step in run order with its own tokens and price', () => {
    const { canvas, second, third, reviewer } = canvasWithStaleChain();
    const estimate = replayEstimate(canvas.graph, canvas.shownStale(), { pricePerMTokIn: () => 3 });
    expect(estimate.perStep.map((step) => [step.nodeId, step.lane])).toEqual([
      [second, 'replay'],
      [third, 'replay'],
      [reviewer, 'auto-rerun'],
    ]);
    for (const step of estimate.perStep) {
      expect(step.inputTokens).toBe(canvas.compiled(step.nodeId).tokens.total);
      expect(step.price).toBeCloseTo((step.inputTokens * 3) / 1_000_000, 12);
    }
    expect(estimate.perStep.reduce((sum, step) => sum + step.price!, 0)).toBeCloseTo(estimate.price!, 12);
  });

  it('an unticked node does not run, nor an auto-rerun only it would have started; totals follow', () => {
    const { canvas, second, third, reviewer } = canvasWithStaleChain();
    const shown = canvas.shownStale();
    expect(replayWave(canvas.graph, shown, new Set([second])).map((step) => step.nodeId)).toEqual([third, reviewer]);
    expect(replayWave(canvas.graph, shown, new Set([third])).map((step) => step.nodeId)).toEqual([second, reviewer]);
    expect(replayWave(canvas.graph, shown, new Set([second, third])).map((step) => step.nodeId)).toEqual([]);
    expect(replayWave(canvas.graph, shown, new Set([reviewer])).map((step) => step.nodeId)).toEqual([second, third]);
    const all = replayEstimate(canvas.graph, shown);
    const fewer = replayEstimate(canvas.graph, shown, { skipped: new Set([third]) });
    expect(fewer.count).toBe(2);
    expect(fewer.inputTokens).toBe(all.inputTokens - all.perStep.find((step) => step.nodeId === third)!.inputTokens);
  });
});

describe('agent-lane nodes are asked by hand only (C24)', () => {
  it('neither Replay nor an auto-rerun wave plans an agent node; the estimate lists it with the reason', () => {
    const { canvas, second, third, reviewer } = canvasWithStaleChain();
    canvas.apply({ type: 'edit-node', nodeId: third, patch: { model: 'agent:pi' } });
    canvas.apply({ type: 'edit-node', nodeId: reviewer, patch: { model: 'agent:codex/gpt-5' } });
    const shown = canvas.shownStale();
    expect(replayWave(canvas.graph, shown).map((step) => step.nodeId)).toEqual([second]);
    expect(autoRerunWave(canvas.graph, 'first').map((step) => step.nodeId)).toEqual([]);
    const estimate = replayEstimate(canvas.graph, shown);
    expect(estimate.count).toBe(1);
    expect(estimate.byHand.map((entry) => entry.nodeId)).toContain(third);
    expect(estimate.byHand[0]!.reason).toMatch(/asked by hand \(agent lane\)/i);
  });
});
