import { describe, expect, it } from 'vitest';
import { computeStaleFull, staleTrackerInSteps } from './stale-tracker.ts';
import { diffUpstreamParts, upstreamFingerprint, upstreamParts } from './fingerprint.ts';
import { recordedUpstreamParts } from './recorded-upstream.ts';
import { replayEstimate } from './replay-estimate.ts';
import { rerunAllowed } from './rerun-allowed.ts';
import { replayOrder } from './rerun-wave.ts';
import { activeDismissal } from './shown-stale.ts';
import { STALE_MARK } from './compiled-context.ts';
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
    canvas.answer(first!, 'answer 0, regenerated');
    expect(canvas.staleIds()).toEqual([second, third].sort());
    expect(canvas.tracker.questionEdited.size).toBe(0);
  });

  it('editing a node’s own question makes its answer stale (C6), though its fingerprint is blanked', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    const before = upstreamFingerprint(canvas.graph, second!);
    canvas.edit(second!, { question: 'other wording' });
    expect(upstreamFingerprint(canvas.graph, second!)).toBe(before);
    // Its own answer answered another question; below it, third read the old question.
    expect(canvas.staleIds()).toEqual([second, third].sort());
    expect([...canvas.tracker.questionEdited]).toEqual([second]);
    // Replay runs it, and a downstream request sends its answer behind the stale mark.
    expect(replayOrder(canvas.graph, canvas.shownStale())).toEqual([second, third]);
    expect(canvas.transcript(third!)).toContain(`other wording\n--- assistant\n${STALE_MARK}\nanswer 1`);
    expect(canvas.transcript(third!)).not.toContain(`${STALE_MARK}\nanswer 0`);
    // Answering the edited question clears its own mark; third still read the old wording.
    canvas.answer(second!, 'answer 1 to the new wording');
    expect(canvas.staleIds()).toEqual([third]);
    // Putting the question back to what its answer answered clears the mark too.
    canvas.edit(first!, { question: 'question 0, edited' });
    expect(canvas.staleIds()).toContain(first);
    canvas.edit(first!, { question: 'question 0' });
    expect(canvas.staleIds()).not.toContain(first);
    expect(computeStaleFull(canvas.graph).stale).toEqual(canvas.tracker.stale);
  });

  it('the full check in steps yields between them and ends with the same staleness, and a tracker that goes on', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    canvas.answer(first!, 'answer 0, regenerated');
    canvas.edit(third!, { question: 'third, reworded' });
    for (let index = 0; index < 4; index += 1) canvas.answer(canvas.addQuestion(`aside ${index}`), 'aside answer');
    const steps = staleTrackerInSteps(canvas.graph, 3);
    let yielded = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) yielded += 1;
    expect(yielded).toBe(Math.floor(canvas.graph.nodes.size / 3));
    const tracker = next.value;
    const full = computeStaleFull(canvas.graph);
    expect([...tracker.stale].sort()).toEqual([second, third].sort());
    expect(tracker.stale).toEqual(full.stale);
    expect(tracker.questionEdited).toEqual(full.questionEdited);
    expect(tracker.fingerprints).toEqual(full.fingerprints);
    // It tracks later changes incrementally, as one built at once does.
    canvas.answer(second!, 'answer 1, regenerated');
    tracker.update(canvas.graph);
    expect(tracker.stale).toEqual(computeStaleFull(canvas.graph).stale);
  });

  it('a node with no complete answer, or an archived one, is never stale by its own edit', () => {
    const canvas = new TestCanvas();
    const unanswered = canvas.addQuestion('not asked yet');
    canvas.edit(unanswered, { question: 'still not asked' });
    const [answered] = chain(canvas, 1);
    canvas.archive(answered!);
    canvas.edit(answered!, { question: 'edited while archived' });
    expect(canvas.staleIds()).toEqual([]);
    canvas.unarchive(answered!);
    expect(canvas.staleIds()).toEqual([answered]);
  });

  it('a person’s edit of their own question is never judged away: a dismissal of the upstream change does not hide it', () => {
    const canvas = new TestCanvas();
    const [first, second] = chain(canvas, 2);
    canvas.answer(first!, 'answer 0, regenerated');
    canvas.judge(second!, 0.1, 'the upstream change is only wording');
    expect(canvas.staleIds()).toEqual([]);
    canvas.edit(second!, { question: 'a different question now' });
    // Same fingerprint, so the dismissal still matches it — but it rules on upstream changes only.
    expect(activeDismissal(canvas.graph, second!, canvas.tracker.fingerprints.get(second!))).not.toBeNull();
    expect(canvas.staleIds()).toEqual([second]);
    canvas.edit(second!, { question: 'question 1' });
    expect(canvas.staleIds()).toEqual([]);
  });

  it('computes fingerprints without stale marks, so a stale mark upstream never spreads staleness by itself', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    canvas.answer(first!, 'answer 0, regenerated');
    // second and third both read first's answer, so both drift; the mark on second's answer is not the reason.
    expect(canvas.staleIds()).toEqual([second, third].sort());
    canvas.answer(second!, 'answer 1, replayed');
    expect(canvas.staleIds()).toEqual([third]);
  });

  it('archiving an upstream node makes its dependants stale; archived answers are never stale', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    canvas.archive(second!);
    expect(canvas.staleIds()).toEqual([third]);
    canvas.answer(first!, 'x');
    expect(canvas.staleIds()).toEqual([third]);
    expect(computeStaleFull(canvas.graph).stale.has(second!)).toBe(false);
  });

  it('a judge dismissal hides the mark for the fingerprint it judged; an overrule brings it back; a new change too', () => {
    const canvas = new TestCanvas();
    const [first, second] = chain(canvas, 2);
    canvas.answer(first!, 'reworded');
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
    canvas.answer(first!, 'reworded again');
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
    const recorded = node.kind === 'question' ? recordedUpstreamParts(canvas.graph, node.versions.at(-1)!).parts : [];
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
    expect(replayOrder(canvas.graph, canvas.shownStale())).toEqual([first, second, third, fourth]);
    canvas.archive(third!);
    expect(replayOrder(canvas.graph, new Set([fourth!, third!, second!]))).toEqual([second, fourth]);
  });

  it('estimates Replay before it runs: count, input tokens and price of each request as compiled now', () => {
    const canvas = new TestCanvas();
    const [first, second, third] = chain(canvas, 3);
    canvas.answer(first!, 'answer 0, regenerated');
    const reviewer = canvas.addQuestion('reviewer', { autoRerun: 1 });
    canvas.wire(third!, reviewer);
    const shown = canvas.shownStale();
    const estimate = replayEstimate(canvas.graph, shown);
    // The auto-rerun below the stale set runs in the same wave, so it is counted and priced too.
    expect(estimate.steps.map((step) => [step.nodeId, step.lane])).toEqual([
      [second, 'replay'],
      [third, 'replay'],
      [reviewer, 'auto-rerun'],
    ]);
    expect(estimate.count).toBe(3);
    const tokens = [second!, third!, reviewer].map((id) => canvas.compiled(id).tokens.total);
    expect(estimate.inputTokens).toBe(tokens[0]! + tokens[1]! + tokens[2]!);
    expect(estimate.price).toBeNull();
    expect(replayEstimate(canvas.graph, shown, { estimateTokens: () => () => 1 }).inputTokens).toBe(
      [second!, third!, reviewer].reduce((sum, id) => sum + canvas.compiled(id).messages.length, 0),
    );
    const priced = replayEstimate(canvas.graph, shown, { pricePerMTokIn: (id) => (id === reviewer ? 2 : 1) });
    expect(priced.price).toBeCloseTo((tokens[0]! + tokens[1]! + 2 * tokens[2]!) / 1_000_000, 12);
    expect(replayEstimate(canvas.graph, shown, { pricePerMTokIn: (id) => (id === third ? null : 1) }).price).toBeNull();
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
