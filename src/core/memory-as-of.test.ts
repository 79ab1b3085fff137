import { describe, expect, it } from 'vitest';
import type { MemoryProfile } from '../../protocol/index.ts';
import { admitFact, emptyProfile, memoryBlock, mergeFact } from './memory/index.ts';
import { testCandidate, testExchange } from './memory/memory-test-kit.ts';
import { computeStaleFull } from './stale-tracker.ts';
import { upstreamFingerprint } from './fingerprint.ts';
import { TestCanvas } from './test-canvas.ts';

const MARCH = Date.UTC(2026, 2, 1);
const JUNE = Date.UTC(2026, 5, 1);
const APRIL = Date.UTC(2026, 3, 1);

/** "I live in Lyon" said in March, then "I live in Paris" in June, superseding it (a later statement). */
function movedProfile(): MemoryProfile {
  let profile = emptyProfile();
  let previous: string | null = null;
  for (const [city, at] of [
    ['Lyon', MARCH],
    ['Paris', JUNE],
  ] as const) {
    const question = `I live in ${city} with my family.`;
    const exchange = testExchange(question);
    exchange.origin = { ...exchange.origin, at };
    const verdict = admitFact(
      testCandidate(`Lives in ${city}`, question, { category: 'identity', updates: previous }),
      exchange,
      profile,
      0,
    );
    if (!verdict.admitted) throw new Error(verdict.reason);
    const merged = mergeFact(profile, verdict.fact, null, { now: at, newId: () => `line-${city}` });
    if (!merged.ok) throw new Error(merged.error);
    ({ profile } = merged.value);
    previous = merged.value.lineId;
  }
  return profile;
}

/** The canvas as stored, with the question's "as of" date set (the trust panel's control writes this field). */
function withAsOf(canvas: TestCanvas, nodeId: string, asOf: number | null): TestCanvas {
  const document = canvas.document();
  document.nodes = document.nodes.map((node) =>
    node.id === nodeId && node.kind === 'question'
      ? { ...node, memoryReading: { includeInferred: false, asOf } }
      : node,
  );
  return new TestCanvas({ document });
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

    const asOfApril = withAsOf(canvas, node, APRIL);
    const then = sent(asOfApril, node, profile);
    expect(memoryText(then)).toEqual(['[Memory as of 2026-04-01T00:00:00.000Z]\nIdentity:\n- Lives in Lyon']);
    expect(then.requestHash).not.toBe(now.requestHash);
    // Another date with the same lines still changes the header, so the hash covers the date itself.
    expect(sent(withAsOf(canvas, node, APRIL + 1), node, profile).requestHash).not.toBe(then.requestHash);
    // After the change, the node dated then is served what holds now.
    expect(memoryText(sent(withAsOf(canvas, node, JUNE + 1), node, profile))[0]).toContain('- Lives in Paris');
  });

  it("the node's fingerprint covers its as-of date: changing it makes the answer stale, clearing it restores it", () => {
    const canvas = new TestCanvas();
    const parent = canvas.addQuestion('What do I know about Lyon?');
    canvas.answer(parent, 'Quite a lot.');
    const node = canvas.addQuestion('Where do I live?');
    canvas.wire(parent, node);
    const plain = upstreamFingerprint(canvas.graph, node);

    const dated = withAsOf(canvas, node, APRIL);
    expect(upstreamFingerprint(dated.graph, node)).not.toBe(plain);
    dated.answer(node, 'In Lyon.');
    expect(computeStaleFull(dated.graph).stale.has(node)).toBe(false);

    const moved = withAsOf(dated, node, JUNE);
    expect(computeStaleFull(moved.graph).stale.has(node)).toBe(true);
    expect(computeStaleFull(withAsOf(dated, node, APRIL).graph).stale.has(node)).toBe(false);
    // No date is the fingerprint stored before the setting existed: an old answer is not made stale by it.
    expect(upstreamFingerprint(withAsOf(canvas, node, null).graph, node)).toBe(plain);
    // A child's context does not carry its parent's date: only the node that asks "as of" changes.
    const child = dated.addQuestion('And before that?');
    dated.wire(node, child);
    const childBefore = upstreamFingerprint(dated.graph, child);
    expect(upstreamFingerprint(withAsOf(dated, node, JUNE).graph, child)).toBe(childBefore);
  });
});
