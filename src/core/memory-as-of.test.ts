import { describe, expect, it } from 'vitest';
import type { MemoryProfile } from '../../protocol/index.ts';
import { sha256Hex } from './hashing.ts';
import { memoryBlock } from './memory/index.ts';
import { planRecall } from './recall/plan-recall.ts';
import type { RecallCandidate } from './recall/recall-inputs.ts';
import { estimateTokensByLength } from './tokens.ts';
import { supersedingStatements } from './memory/memory-test-kit.ts';
import { computeStaleFull } from './stale-tracker.ts';
import { upstreamFingerprint } from './fingerprint.ts';
import { TestCanvas } from './test-canvas.ts';
import { testTurn } from './recall/test-turn.ts';

const MARCH = Date.UTC(2026, 2, 1);
const JUNE = Date.UTC(2026, 5, 1);
const APRIL = Date.UTC(2026, 3, 1);

/** "I live in Lyon" said in March, then "I live in Paris" in June, superseding it (a later statement). */
function movedProfile(): MemoryProfile {
  return supersedingStatements(
    [
      { said: 'I live in Lyon with my family.', text: 'Lives in Lyon', at: MARCH, id: 'line-Lyon' },
      { said: 'I live in Paris with my family.', text: 'Lives in Paris', at: JUNE, id: 'line-Paris' },
    ],
    'identity',
  ).profile;
}

/** The person dates the node's memory (`null`: now), as the node panel's control does. */
function setAsOf(canvas: TestCanvas, nodeId: string, asOf: number | null): void {
  canvas.edit(nodeId, { memoryReading: { includeInferred: false, asOf } });
}

/** The request a node sends, with the [Memory] block as its own memory reading has it (as the app's run does). */
function sent(canvas: TestCanvas, nodeId: string, profile: MemoryProfile) {
  const node = canvas.graph.nodes.get(nodeId)!;
  const block = memoryBlock(profile, node.kind === 'question' ? node.memoryReading : {});
  return canvas.dispatch(nodeId, block === null ? {} : { memoryBlock: block });
}

const memoryText = (built: ReturnType<typeof sent>) =>
  built.request.messages
    .flatMap((message) => message.content)
    .flatMap((part) => (part.type === 'text' && part.text.startsWith('[Memory') ? [part.text] : []));

describe('an "as of" node at the compiler (#29.4)', () => {
  it('a fact superseded by a later statement leaves the current request and is served by a node dated before the change', () => {
    const profile = movedProfile();
    const canvas = new TestCanvas();
    const node = canvas.addQuestion('Where should I look for a flat?');
    const now = sent(canvas, node, profile);
    expect(memoryText(now)).toEqual(['[Memory]\nIdentity:\n- Lives in Paris']);

    setAsOf(canvas, node, APRIL);
    const then = sent(canvas, node, profile);
    expect(memoryText(then)).toEqual(['[Memory as of 2026-04-01T00:00:00.000Z]\nIdentity:\n- Lives in Lyon']);
    expect(then.requestHash).not.toBe(now.requestHash);
    // Another date with the same lines still changes the header, so the hash covers the date itself.
    setAsOf(canvas, node, APRIL + 1);
    expect(sent(canvas, node, profile).requestHash).not.toBe(then.requestHash);
    // Dated after the change, the node is served what holds now.
    setAsOf(canvas, node, JUNE + 1);
    expect(memoryText(sent(canvas, node, profile))[0]).toContain('- Lives in Paris');
  });

  it("the node's fingerprint covers its as-of date: changing it makes the answer stale, setting it back does not", () => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('What do I know about Lyon?');
    canvas.answer(parent, 'Quite a lot.');
    const node = canvas.addQuestion('Where do I live?');
    canvas.wire(parent, node);
    const plain = upstreamFingerprint(canvas.graph, node);
    const child = canvas.addQuestion('And before that?');
    canvas.wire(node, child);

    setAsOf(canvas, node, APRIL);
    expect(upstreamFingerprint(canvas.graph, node)).not.toBe(plain);
    canvas.answer(node, 'In Lyon.');
    canvas.assertStale([]);
    const childBefore = upstreamFingerprint(canvas.graph, child);

    setAsOf(canvas, node, JUNE);
    canvas.assertStale([node]);
    // The incremental tracker agrees with a full recomputation.
    expect([...computeStaleFull(canvas.graph).stale]).toEqual([node]);
    // A child's context does not carry its parent's date: only the node that asks "as of" changes.
    expect(upstreamFingerprint(canvas.graph, child)).toBe(childBefore);
    setAsOf(canvas, node, APRIL);
    canvas.assertStale([]);
    // No date is the fingerprint stored before the setting existed: an old answer is not made stale by it.
    setAsOf(canvas, node, null);
    expect(upstreamFingerprint(canvas.graph, node)).toBe(plain);
  });
});

/** A past session turn about the varroa count, asked at `at`. */
function pastTurn(key: string, at: number, answer: string): RecallCandidate {
  return testTurn(key, { at, answer, question: 'How should the varroa count be stored?' });
}

describe('recall for an "as of" node at the compiler (#29.4)', () => {
  it('sends no past turn from after the date: the request carries exactly the previewed block, without it', () => {
    const march = pastTurn('claude-code:march#1', MARCH, 'Store the varroa count in a spreadsheet.');
    const june = pastTurn('claude-code:june#1', JUNE, 'Store the varroa count in SQLite now.');
    const plan = (asOf: number | null, candidates = [march, june]) =>
      planRecall({
        question: 'How is the varroa count stored?',
        terms: ['varroa', 'count'],
        canvasId: 'active',
        project: '/home/ada/bees',
        global: false,
        struck: [],
        archived: () => false,
        citedFolder: () => '/home/ada/bees',
        candidates,
        dossiers: [],
        ceiling: 'small',
        contextWindow: 200_000,
        estimateTokens: estimateTokensByLength,
        asOf,
      });
    const canvas = new TestCanvas();
    const node = canvas.addQuestion('How is the varroa count stored?');
    const recallText = (block: string) =>
      canvas
        .dispatch(node, { recallBlock: block })
        .request.messages.flatMap((message) => message.content)
        .flatMap((part) => (part.type === 'text' && part.text.startsWith('[Recall') ? [part.text] : []));

    // Now, both turns are recalled.
    const now = plan(null);
    expect(now.items.map((item) => item.id)).toEqual([june.key, march.key]);

    // Dated April, the June turn is left out (and says why); the March one stays.
    setAsOf(canvas, node, APRIL);
    const then = plan(APRIL);
    expect(then.items.map((item) => item.id)).toEqual([march.key]);
    expect(then.omitted).toContainEqual(expect.objectContaining({ id: june.key, reason: 'after-as-of' }));
    const sentText = recallText(then.block!);
    expect(sentText).toHaveLength(1);
    expect(sentText[0]).toContain('spreadsheet');
    expect(sentText[0]).not.toContain('SQLite');
    expect(sentText[0]).toContain('[Recall as of 2026-04-01T00:00:00.000Z]');
    // What the preview names (the plan's block hash) is what the request carries.
    expect(sha256Hex(sentText[0]!)).toBe(then.blockHash);

    // A turn of no known time cannot be shown to precede the date: it stays out too.
    const undated = { ...march, key: 'claude-code:undated#1', at: null };
    const withUndated = plan(APRIL, [march, undated]);
    expect(withUndated.items.map((item) => item.id)).toEqual([march.key]);
  });
});
