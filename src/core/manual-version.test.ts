import { describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../protocol/index.ts';
import { manualVersion } from './manual-version.ts';
import { TestCanvas } from './test-canvas.ts';

const question = (canvas: TestCanvas, id: string) => canvas.graph.nodes.get(id) as QuestionNode;

describe('manual versions (edit an answer)', () => {
  it('adds a new selected manual version and keeps the generated one intact', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('What is a weft?', { id: 'q1' });
    const generated = canvas.answer(first, 'The threads across.');
    const change = manualVersion(question(canvas, first), generated, 'The threads woven across the warp.');
    expect(change.ok).toBe(true);
    if (!change.ok) return;
    canvas.apply(change.value);
    const node = question(canvas, first);
    expect(node.versions.map((version) => [version.origin, version.text])).toEqual([
      ['generated', 'The threads across.'],
      ['manual', 'The threads woven across the warp.'],
    ]);
    const manual = node.versions[1]!;
    expect(node.currentVersionId).toBe(manual.id);
    expect(manual.requestHash).toBeNull();
    expect(manual.branchOf).toBe(generated);
    expect(canvas.eventOps().at(-1)).toBe('version');
  });

  it('downstream reads the edited text and goes stale; the edited node itself does not', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('first', { id: 'q1' });
    const second = canvas.addQuestion('second', { id: 'q2' });
    canvas.wire(first, second);
    const base = canvas.answer(first, 'original answer');
    canvas.answer(second, 'second answer');
    const change = manualVersion(question(canvas, first), base, 'corrected answer');
    if (!change.ok) throw change.error;
    canvas.apply(change.value);
    expect(canvas.staleIds()).toEqual([second]);
    expect(canvas.transcript(second)).toContain('corrected answer');
    expect(canvas.transcript(second)).not.toContain('original answer');
  });

  it('refuses an unchanged text and an unknown version with coded errors', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('first');
    const base = canvas.answer(first, 'same');
    const same = manualVersion(question(canvas, first), base, 'same');
    expect(same.ok ? null : same.error.code).toBe('invalid');
    const missing = manualVersion(question(canvas, first), 'nope', 'text');
    expect(missing.ok ? null : missing.error.code).toBe('not-found');
  });
});
