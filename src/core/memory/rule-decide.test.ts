import { describe, expect, it } from 'vitest';
import { admitFact } from './admit-fact.ts';
import { firstPersonCategory } from './first-person.ts';
import { ruleDecide } from './rule-decide.ts';
import { emptyProfile } from './profile.ts';
import { testExchange } from './memory-test-kit.ts';

describe('the rule path (no judge)', () => {
  it('turns first-person statements in the question into stated candidates, verbatim', () => {
    const exchange = testExchange('My name is Ana Lopez. I prefer answers in French! What is a monad?');
    expect(ruleDecide(exchange)).toEqual([
      {
        text: 'My name is Ana Lopez.',
        category: 'identity',
        span: 'My name is Ana Lopez.',
        stated: true,
        updates: null,
        path: 'rule',
      },
      {
        text: 'I prefer answers in French!',
        category: 'preference',
        span: 'I prefer answers in French!',
        stated: true,
        updates: null,
        path: 'rule',
      },
    ]);
  });

  it('reads notes the person wrote, never the answer or other texts', () => {
    const exchange = testExchange(
      'Summarise this.',
      { answer: 'I prefer concise summaries.', recall: 'I am a surgeon.', mirror: 'I like rust.', memory: 'I am Bob.' },
      'I use Neovim for everything.',
    );
    expect(ruleDecide(exchange).map((candidate) => candidate.text)).toEqual(['I use Neovim for everything.']);
  });

  it('skips questions and third-person talk', () => {
    const exchange = testExchange('Do I prefer tabs? Christophe likes spaces. Tell me about Christophe.');
    expect(ruleDecide(exchange)).toEqual([]);
  });

  it('classifies statements', () => {
    expect(firstPersonCategory("I'm a nurse in Leeds")).toBe('identity');
    expect(firstPersonCategory('I live in Lyon')).toBe('identity');
    expect(firstPersonCategory('I am asking about Christophe')).toBeNull();
    expect(firstPersonCategory("I'm not sure about this")).toBeNull();
    expect(firstPersonCategory('please always answer in British English')).toBe('preference');
    expect(firstPersonCategory("I'd rather see code than prose")).toBe('preference');
    expect(firstPersonCategory("I'm building a compiler in Rust")).toBe('project');
    expect(firstPersonCategory('our project uses PostgreSQL 16')).toBe('project');
    expect(firstPersonCategory('The weather is nice')).toBeNull();
  });

  it('every rule candidate passes the evidence check of its own exchange', () => {
    const exchange = testExchange(
      "I am a teacher in Porto. My name is Ana Lopez. I'm Portuguese. I hate long answers.",
    );
    expect(ruleDecide(exchange).map((candidate) => candidate.text)).toEqual([
      'I am a teacher in Porto.',
      'My name is Ana Lopez.',
      'I hate long answers.',
    ]);
    for (const candidate of ruleDecide(exchange))
      expect(admitFact(candidate, exchange, emptyProfile(), 0)).toMatchObject({ admitted: true });
  });
});
