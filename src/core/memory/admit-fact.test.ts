import { describe, expect, it } from 'vitest';
import { admitFact, MAX_ADDITIONS_PER_VISIT } from './admit-fact.ts';
import { mergeFact } from './merge-fact.ts';
import { deleteLine, refuseTopic } from './person-edits.ts';
import { emptyProfile } from './profile.ts';
import { testCandidate, testContext, testExchange } from './memory-test-kit.ts';
import type { MemoryProfile } from '../../../protocol/memory-profile.ts';
import type { AdmittedFact } from './candidate-fact.ts';

function admitted(verdict: ReturnType<typeof admitFact>): AdmittedFact {
  if (!verdict.admitted) throw new Error(`refused: ${verdict.reason}`);
  return verdict.fact;
}

function write(profile: MemoryProfile, fact: AdmittedFact, context = testContext()): MemoryProfile {
  const outcome = mergeFact(profile, fact, null, context);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.value.profile;
}

describe('the constitution', () => {
  it('admits a preference in the person’s own words, with the exchange as its origin', () => {
    const exchange = testExchange('I prefer tabs over spaces. How do I set that in VS Code?');
    const verdict = admitFact(
      testCandidate('Prefers tabs over spaces', 'I prefer tabs over spaces'),
      exchange,
      emptyProfile(),
      0,
    );
    const fact = admitted(verdict);
    expect(fact).toMatchObject({ document: 'preferences', evidence: 'stated', span: 'I prefer tabs over spaces' });
    expect(fact.origin).toEqual(exchange.origin);
    expect(verdict.event).toEqual({
      op: 'memory-judged',
      objectId: 'node-1',
      meta: {
        verdict: 'admitted',
        reason: null,
        category: 'preference',
        path: 'judge',
        canvasId: 'canvas-1',
        commitHash: 'a'.repeat(64),
      },
    });
  });

  it('an assistant’s sentence is never stored as the user’s fact', () => {
    const exchange = testExchange('What editor fits a data scientist?', {
      answer: 'As a data scientist you love notebooks.',
    });
    const verdict = admitFact(
      testCandidate('Is a data scientist who loves notebooks', 'you love notebooks', { category: 'identity' }),
      exchange,
      emptyProfile(),
      0,
    );
    expect(verdict).toMatchObject({ admitted: false, reason: 'no-own-words' });
  });

  it('a recalled excerpt or the [Memory] block is never re-extracted as a new fact', () => {
    const exchange = testExchange('Summarise my week.', {
      recall: 'Earlier session: I prefer short answers.',
      memory: '[Memory]\nPreferences:\n- I prefer short answers.',
    });
    const verdict = admitFact(
      testCandidate('Prefers short answers', 'I prefer short answers'),
      exchange,
      emptyProfile(),
      0,
    );
    expect(verdict).toMatchObject({ admitted: false, reason: 'no-own-words' });
  });

  it('"asked about Christophe" never becomes "the user is Christophe"', () => {
    const exchange = testExchange('Can you tell me about Christophe and his restaurant?');
    const verdict = admitFact(
      testCandidate('The user is Christophe', 'tell me about Christophe', { category: 'identity' }),
      exchange,
      emptyProfile(),
      0,
    );
    expect(verdict).toMatchObject({ admitted: false, reason: 'identity-not-stated' });
  });

  it('"I am asking about Christophe" is not a statement of identity either', () => {
    const exchange = testExchange('I am asking about Christophe, the chef.');
    const verdict = admitFact(
      testCandidate('The user is Christophe', 'I am asking about Christophe', { category: 'identity' }),
      exchange,
      emptyProfile(),
      0,
    );
    expect(verdict).toMatchObject({ admitted: false, reason: 'identity-not-stated' });
  });

  it('an identity fact must name only who the person said they are', () => {
    const exchange = testExchange('I am Ana and I work with Christophe.');
    const span = 'I am Ana and I work with Christophe';
    const identity = { category: 'identity' } as const;
    for (const text of ['The user is Christophe', 'Christophe is the user', 'User is named Christophe'])
      expect(admitFact(testCandidate(text, span, identity), exchange, emptyProfile(), 0)).toMatchObject({
        admitted: false,
        reason: 'identity-not-stated',
      });
    expect(admitFact(testCandidate('The user is Ana', span, identity), exchange, emptyProfile(), 0).admitted).toBe(
      true,
    );
    const work = testExchange('I work at Mozilla in Berlin.');
    const fact = testCandidate('Works at Mozilla', 'I work at Mozilla', identity);
    expect(admitFact(fact, work, emptyProfile(), 0).admitted).toBe(true);
  });

  it('an identity the judge only inferred is refused', () => {
    const exchange = testExchange('My name is Ana, what does it mean?');
    const verdict = admitFact(
      testCandidate('The user is named Ana', 'My name is Ana', { category: 'identity', stated: false }),
      exchange,
      emptyProfile(),
      0,
    );
    expect(verdict).toMatchObject({ admitted: false, reason: 'identity-not-stated' });
  });

  it('an inferred preference is admitted with evidence inferred', () => {
    const exchange = testExchange('Again, can you make it shorter? I only read the first line anyway.');
    const fact = admitted(
      admitFact(
        testCandidate('Likes short answers', 'I only read the first line', { stated: false }),
        exchange,
        emptyProfile(),
        0,
      ),
    );
    expect(fact.evidence).toBe('inferred');
  });

  it('refuses a credential in the fact or its span', () => {
    const exchange = testExchange('My password is hunter2, I always use it.');
    const verdict = admitFact(
      testCandidate('Uses the same password everywhere', 'My password is hunter2'),
      exchange,
      emptyProfile(),
      0,
    );
    expect(verdict).toMatchObject({ admitted: false, reason: 'credential' });
    expect(JSON.stringify(verdict.event)).not.toContain('hunter2');
  });

  it(`allows at most ${MAX_ADDITIONS_PER_VISIT} additions per canvas per visit`, () => {
    const exchange = testExchange('I prefer dark mode in every editor.');
    const candidate = testCandidate('Prefers dark mode', 'I prefer dark mode');
    expect(admitFact(candidate, exchange, emptyProfile(), 2).admitted).toBe(true);
    expect(admitFact(candidate, exchange, emptyProfile(), 3)).toMatchObject({ admitted: false, reason: 'visit-limit' });
  });

  it('refuses a duplicate of a current line (normalised text)', () => {
    const exchange = testExchange('I prefer dark mode in every editor.');
    const candidate = testCandidate('Prefers dark mode', 'I prefer dark mode');
    const profile = write(emptyProfile(), admitted(admitFact(candidate, exchange, emptyProfile(), 0)));
    const again = testCandidate('  prefers   DARK mode ', 'I prefer dark mode');
    expect(admitFact(again, exchange, profile, 0)).toMatchObject({ admitted: false, reason: 'duplicate' });
  });

  it('an update must target an existing current line of its document', () => {
    const exchange = testExchange('I prefer light mode now, actually.');
    const candidate = testCandidate('Prefers light mode', 'I prefer light mode', { updates: 'line-404' });
    expect(admitFact(candidate, exchange, emptyProfile(), 0)).toMatchObject({
      admitted: false,
      reason: 'unknown-update-target',
    });
    const first = testExchange('I prefer dark mode in every editor.');
    const profile = write(
      emptyProfile(),
      admitted(admitFact(testCandidate('Prefers dark mode', 'I prefer dark mode'), first, emptyProfile(), 0)),
    );
    const update = testCandidate('Prefers light mode', 'I prefer light mode', { updates: 'line-1' });
    expect(admitFact(update, exchange, profile, 0).admitted).toBe(true);
    // An identity fact cannot update a preference line.
    const crossing = testCandidate('Prefers light mode', 'I prefer light mode', {
      updates: 'line-1',
      category: 'identity',
    });
    expect(admitFact(crossing, exchange, profile, 0).admitted).toBe(false);
  });

  it('a deleted fact proposed again is refused with refused-by-person, reworded or not', () => {
    const context = testContext();
    const exchange = testExchange('I prefer tabs over spaces.');
    const candidate = testCandidate('I prefer tabs over spaces', 'I prefer tabs over spaces');
    const profile = write(emptyProfile(), admitted(admitFact(candidate, exchange, emptyProfile(), 0)), context);
    const deleted = deleteLine(profile, 'line-1', context);
    if (!deleted.ok) throw new Error(deleted.error);
    const later = testExchange('As I said, I prefer tabs over spaces. Fix my config.');
    expect(admitFact(candidate, later, deleted.value.profile, 0)).toMatchObject({
      admitted: false,
      reason: 'refused-by-person',
    });
    const reworded = testCandidate('The user prefers tabs over spaces', 'I prefer tabs over spaces');
    expect(admitFact(reworded, later, deleted.value.profile, 0)).toMatchObject({ reason: 'refused-by-person' });
  });

  it('a topic the person said never to store is refused', () => {
    const refused = refuseTopic(emptyProfile(), 'my health', testContext());
    if (!refused.ok) throw new Error(refused.error);
    const exchange = testExchange('I have a health condition that makes mornings hard.');
    const verdict = admitFact(
      testCandidate('Has a health condition that makes mornings hard', 'I have a health condition', { stated: true }),
      exchange,
      refused.value.profile,
      0,
    );
    expect(verdict).toMatchObject({ admitted: false, reason: 'refused-by-person' });
  });

  it('refuses an empty fact and a multi-line fact', () => {
    const exchange = testExchange('I prefer tabs over spaces.');
    expect(admitFact(testCandidate('  ', 'I prefer tabs over spaces'), exchange, emptyProfile(), 0)).toMatchObject({
      reason: 'empty-fact',
    });
    expect(
      admitFact(testCandidate('Prefers tabs\nand spaces', 'I prefer tabs over spaces'), exchange, emptyProfile(), 0),
    ).toMatchObject({ reason: 'not-one-line' });
  });

  it('a project fact is admitted with no profile document (it belongs to a dossier)', () => {
    const exchange = testExchange("I'm building a compiler for a toy language.");
    const fact = admitted(
      admitFact(
        testCandidate('Is building a toy-language compiler', "I'm building a compiler", { category: 'project' }),
        exchange,
        emptyProfile(),
        0,
      ),
    );
    expect(fact.document).toBeNull();
    expect(mergeFact(emptyProfile(), fact, null, testContext())).toEqual({ ok: false, error: 'not-a-profile-fact' });
  });
});
