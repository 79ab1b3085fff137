import { describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../protocol/index.ts';
import { diffUpstreamParts, upstreamParts } from './fingerprint.ts';
import { recordedUpstreamParts } from './recorded-upstream.ts';
import { TestCanvas } from './test-canvas.ts';

function question(canvas: TestCanvas, id: string): QuestionNode {
  const node = canvas.graph.nodes.get(id);
  if (node?.kind !== 'question') throw new Error(`${id} is not a question`);
  return node;
}

/** A chain q0 → q1 → … each answered in order; returns the parts each answer saw when it was asked. */
function answeredChain(canvas: TestCanvas, length: number): { ids: string[]; seen: Map<string, unknown> } {
  const ids: string[] = [];
  const seen = new Map<string, unknown>();
  for (let index = 0; index < length; index += 1) {
    const id = canvas.addQuestion(`question ${index}`, { id: `q${index}` });
    if (index > 0) canvas.wire(ids[index - 1]!, id);
    seen.set(id, upstreamParts(canvas.graph, id));
    canvas.answer(id, `answer ${index}`);
    ids.push(id);
  }
  return { ids, seen };
}

describe('recorded upstream parts (C6, canvas version 2)', () => {
  it('a chain answer stores one part, yet folds back to every part it was asked against', () => {
    const canvas = new TestCanvas();
    const { ids, seen } = answeredChain(canvas, 30);
    for (const id of ids) {
      const version = question(canvas, id).versions[0]!;
      expect(version.upstream.parts.length).toBeLessThanOrEqual(1);
      expect(recordedUpstreamParts(canvas.graph, version)).toEqual({ parts: seen.get(id), complete: true });
    }
    expect(recordedUpstreamParts(canvas.graph, question(canvas, 'q29').versions[0]!).parts).toHaveLength(29);
  });

  it('still says what changed deep upstream after an edit', () => {
    const canvas = new TestCanvas();
    answeredChain(canvas, 6);
    canvas.edit('q1', { question: 'question 1, sharpened' });
    const version = question(canvas, 'q5').versions[0]!;
    const diff = diffUpstreamParts(
      recordedUpstreamParts(canvas.graph, version).parts,
      upstreamParts(canvas.graph, 'q5'),
    );
    expect(diff.changed.map((entry) => entry.nodeId)).toEqual(['q1']);
    expect(diff.changed[0]!.before.opening).toContain('question 1');
    expect(diff.changed[0]!.after.opening).toContain('sharpened');
    expect(diff.unchanged).toBe(4);
  });

  it('a node deleted from the middle of a chain takes none of its dependents’ recorded parts with it', () => {
    const canvas = new TestCanvas();
    const { seen } = answeredChain(canvas, 5);
    canvas.delete('q2');
    for (const id of ['q3', 'q4']) {
      const version = question(canvas, id).versions[0]!;
      expect(version.upstream.base?.nodeId).not.toBe('q2');
      expect(recordedUpstreamParts(canvas.graph, version)).toEqual({ parts: seen.get(id), complete: true });
    }
  });

  it('a base that is missing or loops back ends the fold as incomplete instead of hanging', () => {
    const canvas = new TestCanvas();
    answeredChain(canvas, 2);
    const version = question(canvas, 'q1').versions[0]!;
    const missing = { ...version, upstream: { ...version.upstream, base: { nodeId: 'gone', versionId: 'v' } } };
    expect(recordedUpstreamParts(canvas.graph, missing).complete).toBe(false);
    const looped = { ...version, upstream: { ...version.upstream, base: { nodeId: 'q1', versionId: version.id } } };
    expect(recordedUpstreamParts(canvas.graph, looped)).toMatchObject({ complete: false });
  });
});
