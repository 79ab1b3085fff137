import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findEvidence, MIN_SPAN_WORDS } from './find-evidence.ts';
import { normaliseText } from './normalise-text.ts';
import { testExchange } from './memory-test-kit.ts';

describe('evidence must be the person’s own words', () => {
  it('finds a span in the question, ignoring case and spacing', () => {
    const exchange = testExchange('Hi.  I PREFER tabs\nover spaces, always.');
    const verdict = findEvidence(exchange, 'i prefer tabs over spaces');
    expect(verdict.ok).toBe(true);
    if (verdict.ok) expect(verdict.source.kind).toBe('question');
  });

  it('finds a span in a note the person wrote', () => {
    const exchange = testExchange('What should I read next?', {}, 'Reminder: I live in Lyon now.');
    const verdict = findEvidence(exchange, 'I live in Lyon');
    expect(verdict.ok && verdict.source.kind).toBe('note');
  });

  it('treats curly and straight apostrophes as the same character', () => {
    expect(findEvidence(testExchange('I’m a nurse by training.'), "I'm a nurse").ok).toBe(true);
  });

  it.each(['answer', 'recall', 'mirror', 'material', 'memory'] as const)(
    'refuses a span found only in the %s as no-own-words',
    (kind) => {
      const exchange = testExchange('Which editor should I use?', { [kind]: 'You prefer vim over emacs.' });
      expect(findEvidence(exchange, 'prefer vim over emacs')).toEqual({
        ok: false,
        code: 'no-own-words',
        foundIn: [kind],
      });
    },
  );

  it('an assistant’s sentence is never evidence, even when it claims to quote the person', () => {
    const exchange = testExchange('Tell me about Christophe.', {
      answer: 'As you said, "I am Christophe, a chef in Paris."',
    });
    const verdict = findEvidence(exchange, 'I am Christophe, a chef in Paris');
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.code).toBe('no-own-words');
  });

  it('refuses a span that appears nowhere as span-not-found', () => {
    const verdict = findEvidence(testExchange('I like green tea.'), 'I like black coffee');
    expect(!verdict.ok && verdict.code).toBe('span-not-found');
  });

  it(`refuses a span shorter than ${MIN_SPAN_WORDS} words`, () => {
    const verdict = findEvidence(testExchange('I like green tea.'), 'green tea');
    expect(!verdict.ok && verdict.code).toBe('span-too-short');
  });

  it('a verbatim substring of the question of at least three words is always found (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-zA-Z]{1,8}$/), { minLength: 3, maxLength: 12 }),
        fc.nat(),
        (list, seed) => {
          const question = list.join(' ');
          const start = seed % (list.length - 2);
          const span = list
            .slice(start, start + 3)
            .join('  ')
            .toUpperCase();
          return findEvidence(testExchange(question), span).ok;
        },
      ),
    );
  });

  it('normalising is idempotent (property)', () => {
    fc.assert(fc.property(fc.string(), (text) => normaliseText(normaliseText(text)) === normaliseText(text)));
  });
});
