import { describe, expect, it } from 'vitest';
import { computeStaleFull } from './stale-tracker.ts';
import { diffUpstreamParts, upstreamFingerprint, upstreamParts } from './fingerprint.ts';
import { autoRerunTargets, replayEstimate, replayOrder, rerunAllowed } from './replay.ts';
import { TestCanvas } from './test-canvas.ts';

function chain(canvas: TestCanvas, length: number): string[] {
  const ids: string[] = [];
  for (let index = 0; index < length; index += 1) {
    const id = canvas.addQuestion(`question ${index}`, { id: `q${index}` });
    if (index > 0) canvas.wire(ids[index - 1]!, id);
    canvas.answer(id, `answer ${index}`);
    ids.push(id);
  }
  return ids;
}

describe('staleness (C6)', () => {
  it('marks live answered descendants of an edit stale, and nothing else', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    const aside = canvas.addQuestion('aside');
    canvas.answer(aside, 'aside answer');
    expect(canvas.staleIds()).toEqual([]);
    canvas.edit(second!, { question: 'question 1, reworded' });
    expect(canvas.staleIds()).toEqual([third]);
    canvas.answer(first!, 'answer 0, regenerated');
    expect(canvas.staleIds()).toEqual([second, third].sort());
  });

  it('blanks the node’s own content: editing its own question leaves its answer fresh', () => {
    const canvas = new TestCanvas();
    const [, second] = chain(canvas, 2);
    const before = upstreamFingerprint(canvas.graph, second!);
    canvas.edit(second!, { question: 'other wording' });
    expect(upstreamFingerprint(canvas.graph, second!)).toBe(before);
    expect(canvas.staleIds()).toEqual([]);
  });

  it('computes fingerprints without stale marks, so a stale mark upstream never spreads staleness by itself', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    canvas.edit(first!, { question: 'changed' });
    // second and third both read first's question, so both drift; the mark on second's answer is not the reason.
    expect(canvas.staleIds()).toEqual([second, third].sort());
    canvas.answer(second!, 'answer 1, replayed');
    expect(canvas.staleIds()).toEqual([third]);
  });

  it('archiving an upstream node makes its dependants stale; archived answers are never stale', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    canvas.archive(second!);
    expect(canvas.staleIds()).toEqual([third]);
    canvas.edit(first!, { question: 'x' });
    expect(canvas.staleIds()).toEqual([third]);
    expect(computeStaleFull(canvas.graph).stale.has(second!)).toBe(false);
  });

  it('a judge dismissal hides the mark for the fingerprint it judged; an overrule brings it back; a new change too', () => {
    const canvas = new TestCanvas();
    const [first, second] = chain(canvas, 2);
    canvas.edit(first!, { question: 'reworded' });
    expect(canvas.staleIds()).toEqual([second]);
    canvas.judge(second!, 0.9, 'bears on it');
    expect(canvas.staleIds()).toEqual([second]);
    canvas.judge(second!, 0.2, 'only wording');
    expect(canvas.staleIds()).toEqual([]);
    expect(canvas.tracker.stale.has(second!)).toBe(true);
    const fingerprint = canvas.tracker.fingerprints.get(second!)!;
    canvas.apply({ type: 'overrule-dismissal', nodeId: second!, fingerprint, overruled: true });
    expect(canvas.staleIds()).toEqual([second]);
    canvas.apply({ type: 'overrule-dismissal', nodeId: second!, fingerprint, overruled: false });
    expect(canvas.staleIds()).toEqual([]);
    canvas.edit(first!, { question: 'reworded again' });
    expect(canvas.staleIds()).toEqual([second]);
    expect(canvas.eventOps().filter((op) => op.startsWith('stale-'))).toEqual([
      'stale-verdict',
      'stale-verdict',
      'stale-overrule',
      'stale-overrule',
    ]);
  });

  it('re-checks the descendants of a question when the record of an image it names arrives later', () => {
    const canvas = new TestCanvas();
    const [first, second] = chain(canvas, 2);
    const image = '2'.repeat(64);
    canvas.edit(first!, { attachments: [image] });
    canvas.answer(second!, 'answer 1 with the image unknown');
    expect(canvas.staleIds()).toEqual([]);
    // The image's media type now reaches second's context: its recorded answer no longer matches.
    canvas.apply({
      type: 'add-attachment',
      attachment: { hash: image, mediaType: 'image/jpeg', name: 'late.jpg', byteLength: 1, dataBase64: 'AA==' },
    });
    expect(canvas.staleIds()).toEqual([second]);
    expect(new Map([...canvas.tracker.fingerprints].sort())).toEqual(
      new Map([...computeStaleFull(canvas.graph).fingerprints].sort()),
    );
  });

  it('records per-upstream parts so the UI can say what changed', () => {
    const canvas = new TestCanvas();
    const material = canvas.addMaterial('M', 'material text');
    const [first, second] = chain(canvas, 2);
    canvas.wire(material, first!);
    canvas.answer(second!, 'answer against the material');
    const node = canvas.graph.nodes.get(second!)!;
    const recorded = node.kind === 'question' ? node.versions.at(-1)!.upstreamParts : [];
    expect(recorded.map((part) => part.nodeId)).toEqual([material, first]);
    expect(recorded[0]!.opening.startsWith('[Material: M]')).toBe(true);
    canvas.edit(material, { text: 'material text, revised' });
    const diff = diffUpstreamParts(recorded, upstreamParts(canvas.graph, second!));
    expect(diff.changed.map((change) => change.nodeId)).toEqual([material]);
    expect(diff.unchanged).toBe(1);
    canvas.unwire(material, first!);
    const after = diffUpstreamParts(recorded, upstreamParts(canvas.graph, second!));
    expect(after.removed.map((part) => part.nodeId)).toEqual([material]);
  });
});

describe('replay and reruns (C4, C8)', () => {
  it('replays the shown stale set in dependency order, skipping archived nodes', () => {
    const canvas = new TestCanvas();
    const [first, second, third, fourth] = chain(canvas, 4);
    canvas.edit(first!, { question: 'changed' });
    expect(replayOrder(canvas.graph, canvas.shownStale())).toEqual([second, third, fourth]);
    canvas.archive(third!);
    expect(replayOrder(canvas.graph, new Set([fourth!, third!, second!]))).toEqual([second, fourth]);
  });

  it('estimates Replay before it runs: count and input tokens of each request as compiled now', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    canvas.edit(first!, { question: 'changed' });
    const shown = canvas.shownStale();
    const estimate = replayEstimate(canvas.graph, shown);
    expect(estimate.order).toEqual([second, third]);
    expect(estimate.count).toBe(2);
    expect(estimate.inputTokens).toBe(canvas.compiled(second!).tokens.total + canvas.compiled(third!).tokens.total);
    expect(replayEstimate(canvas.graph, shown, () => 1).inputTokens).toBe(
      canvas.compiled(second!).messages.length + canvas.compiled(third!).messages.length,
    );
  });

  it('auto-reruns live flagged descendants of a completed node, bounded by rounds, never archived', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const reviewer = canvas.addQuestion('reviewer', { autoRerun: 2 });
    const archivedReviewer = canvas.addQuestion('archived reviewer', { autoRerun: 2 });
    const unflagged = canvas.addQuestion('plain');
    const viaReference = canvas.addQuestion('via reference', { autoRerun: 1 });
    canvas.wire(root, reviewer);
    canvas.wire(root, archivedReviewer);
    canvas.wire(root, unflagged);
    canvas.wire(reviewer, viaReference, 'quote');
    canvas.archive(archivedReviewer);
    expect(autoRerunTargets(canvas.graph, root)).toEqual([reviewer, viaReference]);
    expect(autoRerunTargets(canvas.graph, root, new Map([[reviewer, 2]]))).toEqual([viaReference]);
    expect(autoRerunTargets(canvas.graph, reviewer)).toEqual([viaReference]);
  });

  it('refuses to rerun archived nodes with a reason', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('q');
    expect(rerunAllowed(canvas.graph.nodes.get(question))).toEqual({ ok: true });
    canvas.archive(question);
    const verdict = rerunAllowed(canvas.graph.nodes.get(question));
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.code).toBe('archived');
    expect(!verdict.ok && verdict.reason).toMatch(/archived/);
    expect(rerunAllowed(canvas.graph.nodes.get(canvas.addNote('n'))).ok).toBe(false);
  });
});
