import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MemoryInbox, MemoryProfile } from '../../../protocol/index.ts';
import { admitFact } from './admit-fact.ts';
import type { AdmittedFact } from './candidate-fact.ts';
import { acceptProposal, emptyInbox, inboxPage, newestFirst, proposeFact, rejectProposal } from './memory-inbox.ts';
import { memoryBlock } from './memory-block.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';
import { mergeFact } from './merge-fact.ts';
import { currentLines, emptyProfile } from './profile.ts';

const SENTENCES = [
  'I prefer tabs over spaces.',
  'I use Neovim for everything.',
  'I like short answers with examples.',
  'I prefer answers in British English.',
  'I work with PostgreSQL every day.',
];

function admitted(sentence: string, profile: MemoryProfile = emptyProfile()): AdmittedFact {
  const verdict = admitFact(testCandidate(sentence, sentence, { path: 'rule' }), testExchange(sentence), profile, 0);
  if (!verdict.admitted) throw new Error(`refused: ${verdict.reason}`);
  return verdict.fact;
}

function proposed(inbox: MemoryInbox, fact: AdmittedFact, context = testContext(10_000, 'p')) {
  const result = proposeFact(inbox, fact, context);
  if (!result) throw new Error('not proposed');
  return result;
}

describe('the Inbox (issue 29.1)', () => {
  it('proposes a fact with its words, evidence, origin and rule, once, newest first', () => {
    const context = testContext(10_000, 'p');
    const first = proposed(emptyInbox(), admitted(SENTENCES[0]!), context);
    expect(first.proposal).toEqual({
      id: 'p-1',
      at: 10_000,
      text: 'I prefer tabs over spaces.',
      document: 'preferences',
      category: 'preference',
      evidence: 'stated',
      span: 'I prefer tabs over spaces.',
      origin: testExchange('x').origin,
      updates: null,
      path: 'rule',
    });
    expect(first.event).toMatchObject({ op: 'memory-proposed', objectId: 'p-1', meta: { path: 'rule' } });
    // Words never enter the log.
    expect(JSON.stringify(first.event)).not.toContain('tabs');
    // The same words again: not a second proposal.
    expect(proposeFact(first.inbox, admitted('I prefer TABS over spaces.'), context)).toBeNull();
    context.tick();
    const second = proposed(first.inbox, admitted(SENTENCES[1]!), context);
    expect(newestFirst(second.inbox).map((each) => each.text)).toEqual([SENTENCES[1], SENTENCES[0]]);
  });

  it('pages newest first by the last id given, so a decision between two pages shifts nothing', () => {
    const context = testContext(10_000, 'p');
    let inbox = emptyInbox();
    for (const sentence of SENTENCES) {
      context.tick();
      inbox = proposed(inbox, admitted(sentence), context).inbox;
    }
    const first = inboxPage(inbox, { cursor: null, limit: 2 });
    expect(first.proposals.map((each) => each.id)).toEqual(['p-5', 'p-4']);
    expect(first).toMatchObject({ nextCursor: 'p-4', total: 5 });
    // p-5 is decided meanwhile: the next page still starts after p-4.
    const decided = rejectProposal(emptyProfile(), inbox, 'p-5', context);
    if (!decided.ok) throw new Error(decided.error);
    const second = inboxPage(decided.value.inbox, { cursor: first.nextCursor, limit: 2 });
    expect(second.proposals.map((each) => each.id)).toEqual(['p-3', 'p-2']);
    const last = inboxPage(decided.value.inbox, { cursor: second.nextCursor, limit: 2 });
    expect(last).toMatchObject({ nextCursor: null, total: 4 });
    expect(last.proposals.map((each) => each.id)).toEqual(['p-1']);
  });

  it('rejects into a refusal that the constitution then applies to the same words and a rewording', () => {
    const { inbox, proposal } = proposed(emptyInbox(), admitted('I prefer tabs over spaces for indentation.'));
    const rejected = rejectProposal(emptyProfile(), inbox, proposal.id, testContext(20_000, 'r'));
    if (!rejected.ok) throw new Error(rejected.error);
    expect(rejected.value.inbox.pending).toEqual([]);
    expect(rejected.value.profile.refusals).toEqual([
      { id: 'r-1', kind: 'rejected-proposal', text: proposal.text, lineId: null, at: 20_000 },
    ]);
    expect(rejected.value.events.map((event) => event.op)).toEqual(['memory-rejected']);
    for (const again of ['I prefer tabs over spaces for indentation.', 'I prefer tabs.']) {
      const verdict = admitFact(testCandidate(again, again), testExchange(again), rejected.value.profile, 0);
      expect(verdict).toMatchObject({ admitted: false, reason: 'refused-by-person' });
    }
    expect(rejectProposal(emptyProfile(), rejected.value.inbox, proposal.id, testContext())).toEqual({
      ok: false,
      error: 'unknown-proposal',
    });
  });

  it('accepts as the rule merge would (replacing the line it updates) or, edited, as the person’s own line', () => {
    const context = testContext(30_000, 'l');
    const base = mergeFact(emptyProfile(), admitted('I use Vim for everything.'), null, context);
    if (!base.ok) throw new Error(base.error);
    const old = base.value.lineId!;
    const fact = { ...admitted(SENTENCES[1]!, base.value.profile), updates: old };
    const { inbox, proposal } = proposed(emptyInbox(), fact);
    const accepted = acceptProposal(base.value.profile, inbox, proposal.id, null, context);
    if (!accepted.ok) throw new Error(accepted.error);
    expect(currentLines(accepted.value.profile, 'preferences').map((line) => [line.text, line.evidence])).toEqual([
      [SENTENCES[1], 'stated'],
    ]);
    expect(accepted.value.events.map((event) => [event.op, event.meta.edited ?? null])).toEqual([
      ['memory-accepted', false],
      ['memory-written', null],
    ]);

    const edited = acceptProposal(base.value.profile, inbox, proposal.id, 'I use Neovim, mostly.', context);
    if (!edited.ok) throw new Error(edited.error);
    const lines = edited.value.profile.documents.preferences;
    expect(lines.find((line) => line.id === old)!.ended).toMatchObject({ reason: 'replaced' });
    expect(currentLines(edited.value.profile, 'preferences')).toMatchObject([
      { text: 'I use Neovim, mostly.', evidence: 'manual', span: null, origin: proposal.origin, supersedes: [old] },
    ]);
    for (const [text, code] of [
      ['', 'empty'],
      ['two\nlines', 'not-one-line'],
      ['my key is sk-abcdefghijklmnopqrstuvwx', 'credential'],
      ['I use Vim for everything.', 'duplicate'],
    ] as const)
      expect(acceptProposal(base.value.profile, inbox, proposal.id, text, context)).toEqual({ ok: false, error: code });
  });

  it('never lets a pending line into the [Memory] block, whatever is proposed, accepted or rejected', () => {
    const step = fc.record({
      sentence: fc.constantFrom(...SENTENCES),
      decision: fc.constantFrom('leave', 'accept', 'reject'),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const context = testContext(1_000, 'id');
        let profile = emptyProfile();
        let inbox = emptyInbox();
        const accepted = new Set<string>();
        for (const { sentence, decision } of steps) {
          context.tick();
          const verdict = admitFact(testCandidate(sentence, sentence), testExchange(sentence), profile, 0);
          const result = verdict.admitted ? proposeFact(inbox, verdict.fact, context) : null;
          if (result) inbox = result.inbox;
          const target = inbox.pending.find((pending) => pending.text === sentence);
          if (!target || decision === 'leave') continue;
          const decided =
            decision === 'accept'
              ? acceptProposal(profile, inbox, target.id, null, context)
              : rejectProposal(profile, inbox, target.id, context);
          if (!decided.ok) throw new Error(decided.error);
          ({ profile, inbox } = decided.value);
          if (decision === 'accept') accepted.add(sentence);
        }
        const block = memoryBlock(profile) ?? '';
        for (const pending of inbox.pending) expect(block).not.toContain(pending.text);
        for (const sentence of SENTENCES) expect(block.includes(sentence)).toBe(accepted.has(sentence));
      }),
      { numRuns: 200 },
    );
  });
});
