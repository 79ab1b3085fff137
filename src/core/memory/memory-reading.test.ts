import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LineEvidence, MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import { LineEvidenceSchema } from '../../../protocol/index.ts';
import { TestCanvas } from '../test-canvas.ts';
import { lineKnownAs } from './known-as.ts';
import { memoryBlock } from './memory-block.ts';
import { memoryReadingOf } from './memory-reading-of.ts';
import { emptyProfile } from './profile.ts';

function line(id: string, text: string, evidence: LineEvidence, ended = false): ProfileLine {
  return {
    id,
    text,
    evidence,
    span: evidence === 'stated' || evidence === 'inferred' ? text : null,
    origin: { canvasId: null, nodeId: null, versionId: null, commitHash: null, at: 1 },
    createdAt: 1,
    supersedes: [],
    ended: ended ? { reason: 'deleted', at: 2 } : null,
  };
}

function profileOf(preferences: ProfileLine[], identity: ProfileLine[] = []): MemoryProfile {
  return { ...emptyProfile(), documents: { preferences, identity } };
}

const PROFILE = profileOf(
  [line('a', 'Prefers SI units', 'stated'), line('b', 'Probably dislikes long answers', 'inferred')],
  [line('c', 'Works as a nurse', 'manual'), line('d', 'Lived in Leeds once', 'folded')],
);

/** The request a node of a one-question canvas sends, built the way the app and `weft compile` build it. */
function sentTexts(switchOn: boolean | null) {
  const canvas = new TestCanvas();
  const nodeId = canvas.addQuestion('what should I read next?');
  if (switchOn !== null)
    canvas.apply({
      type: 'edit-node',
      nodeId,
      patch: { memoryReading: { includeInferred: switchOn, asOf: null } },
    });
  const node = canvas.graph.nodes.get(nodeId);
  const block = memoryBlock(PROFILE, memoryReadingOf(node?.kind === 'question' ? node : null));
  const built = canvas.dispatch(nodeId, block ? { memoryBlock: block } : {});
  const texts = built.request.messages.flatMap((message) =>
    message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
  );
  return { texts: texts.join('\n'), hash: built.requestHash };
}

describe('trust state in the [Memory] block (#29.3)', () => {
  it('derives how a line is known from its evidence', () => {
    const expected: Record<LineEvidence, string> = {
      stated: 'stated',
      manual: 'stated',
      inferred: 'inferred',
      rewritten: 'inferred',
      folded: 'reconstructed',
    };
    for (const evidence of LineEvidenceSchema.options) expect(lineKnownAs({ evidence })).toBe(expected[evidence]);
  });

  it('never sends an inferred line from a node with the switch off (absent or off), and marks it when on', () => {
    const absent = sentTexts(null);
    const off = sentTexts(false);
    const on = sentTexts(true);
    for (const sent of [absent, off]) {
      expect(sent.texts).toContain('- Prefers SI units');
      expect(sent.texts).toContain('- Works as a nurse');
      expect(sent.texts).toContain('- [reconstructed] Lived in Leeds once');
      expect(sent.texts).not.toContain('dislikes long answers');
    }
    // The switch off and the switch absent send the same bytes: no node's request changes until it is turned on.
    expect(off.hash).toBe(absent.hash);
    expect(on.texts).toContain('- [inferred] Probably dislikes long answers');
    expect(on.texts).toContain('- Prefers SI units');
    expect(on.hash).not.toBe(off.hash);
  });

  it('a stated line the merge reworded stays in the request, marked reconstructed; a rewording of a guess does not', () => {
    const replaced = (id: string, text: string, evidence: LineEvidence, by: string): ProfileLine => ({
      ...line(id, text, evidence),
      ended: { reason: 'replaced', at: 2, by },
    });
    const reworded = (id: string, text: string, supersedes: string[]): ProfileLine => ({
      ...line(id, text, 'rewritten'),
      supersedes,
    });
    const profile = profileOf([
      replaced('a', 'Prefers short answers', 'stated', 'b'),
      reworded('b', 'Prefers short answers in dark mode', ['a']),
      line('c', 'Uses dark mode', 'stated'),
      replaced('g', 'Probably likes tables', 'inferred', 'h'),
      reworded('h', 'Probably likes tables and charts', ['g']),
      reworded('o', 'A rewording whose source is gone', ['missing']),
    ]);
    expect(lineKnownAs(profile.documents.preferences[1]!, profile)).toBe('reconstructed');
    expect(memoryBlock(profile)).toBe(
      '[Memory]\nPreferences:\n- [reconstructed] Prefers short answers in dark mode\n- Uses dark mode',
    );
    expect(memoryBlock(profile, { includeInferred: true, asOf: null })).toContain(
      '- [inferred] Probably likes tables and charts',
    );
  });

  it('a profile of inferred lines alone sends no [Memory] block with the switch off', () => {
    const profile = profileOf([line('b', 'Probably dislikes long answers', 'inferred')]);
    expect(memoryBlock(profile)).toBeNull();
    expect(memoryBlock(profile, { includeInferred: true, asOf: null })).toBe(
      '[Memory]\nPreferences:\n- [inferred] Probably dislikes long answers',
    );
  });

  it('property: with the switch off no inferred line is read; every current other line is, marked as known', () => {
    const lineArbitrary = fc.record({
      text: fc.stringMatching(/^[a-z]{3,12}( [a-z]{3,12}){0,3}$/),
      evidence: fc.constantFrom(...LineEvidenceSchema.options),
      ended: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(lineArbitrary, { maxLength: 12 }), fc.boolean(), (drafts, includeInferred) => {
        const lines = drafts.map((draft, index) =>
          line(`l${index}`, `${draft.text} #${index}`, draft.evidence, draft.ended),
        );
        const profile = profileOf(lines);
        const block = memoryBlock(profile, { includeInferred, asOf: null }) ?? '';
        const sent = block.split('\n');
        for (const each of lines) {
          const knownAs = lineKnownAs(each, profile);
          const mark = knownAs === 'inferred' || knownAs === 'reconstructed' ? `[${knownAs}] ` : '';
          const present = sent.includes(`- ${mark}${each.text}`);
          const expected = each.ended === null && (knownAs !== 'inferred' || includeInferred);
          expect(present).toBe(expected);
          // No line is ever sent unmarked unless it is the person's own words.
          if (knownAs !== 'stated') expect(sent.includes(`- ${each.text}`)).toBe(false);
        }
      }),
    );
  });
});
