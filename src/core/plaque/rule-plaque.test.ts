import { describe, expect, it } from 'vitest';
import { ruleLadder, ruleTopic } from './rule-plaque.ts';
import { splitSentences } from './split-sentences.ts';
import { validateLadder } from './validate-ladder.ts';

// The offline receipt's first line, as runtime/models/receipt-model.ts writes it.
const RECEIPT =
  'Offline receipt: no model was called. This is what a model would have received.\n\nMessages: 2\nToken estimate: ~40';

/** The rule's plaque never shows a phrase cut short: golden cases from the ChatGPT fixture and the offline receipt. */
describe('the rule writes whole clauses (issue 30)', () => {
  it('ends the topic at a clause, not inside a range: "Bakers recommend 75–80 °F", never "Bakers recommend 75"', () => {
    const answer = 'Bakers recommend 75–80 °F (24–27 °C); below 21 °C it slows down a lot.';
    const ladder = ruleLadder('How warm is warm?', answer)!;
    expect(ladder.takeaway).toBe(answer);
    expect(ladder.topic).toBe('Bakers recommend 75–80 °F');
    expect(validateLadder(ladder, splitSentences(answer)).ok).toBe(true);
  });

  it('writes a code-only answer from its whole question: "Show me a feeding schedule as code", never "Show me a"', () => {
    const answer = '```python\nfor hour in (8, 20):\n    feed(ratio="1:1:1", at=hour)\n```';
    const ladder = ruleLadder('Show me a feeding schedule as code.', answer)!;
    expect(ladder.takeaway).toBe('Show me a feeding schedule as code.');
    expect(ladder.topic).toBe('Show me a feeding schedule as code');
    expect(ladder.abstract).toEqual([]);
  });

  it('says what was asked for an offline receipt, so the map does not read "Offline receipt: no" on every card', () => {
    const ladder = ruleLadder('Why is the sky blue? Keep it short.', RECEIPT, { receipt: true })!;
    expect(ladder.takeaway).toBe('Why is the sky blue?');
    expect(ladder.topic).toBe('Why is the sky blue');
    // Two receipts for two questions read as two plaques.
    expect(ruleLadder('What colour is a sunset?', RECEIPT, { receipt: true })!.takeaway).toBe(
      'What colour is a sunset?',
    );
    // Not told it is a receipt, the rule still never cuts the label: the clause before the colon.
    expect(ruleLadder('Q?', RECEIPT)!.topic).toBe('Offline receipt');
  });

  it('keeps a long sentence to its whole clauses that fit, and a long clause to words that do not dangle', () => {
    const clause = 'the starter rises and falls on a schedule that depends on the flour, ';
    const answer = `${clause.repeat(4)}and that is why it needs feeding twice a day.`;
    const ladder = ruleLadder('Q?', answer)!;
    expect(ladder.takeaway.length).toBeLessThanOrEqual(200);
    expect(ladder.takeaway).toMatch(/flour…$/);
    expect(ladder.topic).toBe('starter rises and falls');
    expect(ladder.takeaway).toContain(ladder.topic);
  });

  it('never ends a topic cut to words on a word that promises more', () => {
    const topic = ruleTopic('Use a very long name for the thing that you keep in a jar on the shelf');
    expect(topic).toBe('Use a very long name');
    for (const text of ['Show me a feeding plan for the whole week ahead of the big bake day', 'Word '.repeat(30)]) {
      const words = ruleTopic(text).split(' ');
      expect(['a', 'the', 'for', 'of', 'me', 'to']).not.toContain(words[words.length - 1]);
    }
  });
});
