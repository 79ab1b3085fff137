import { describe, expect, it } from 'vitest';
import { APPROXIMATE_COUNTER, loadTokenizer, subscribeTokenizers, tokenCounterFor } from './token-counter.ts';
import { formatTokens } from './token-label.ts';

// Counts an OpenAI tokenizer gives; chars / 4 would say 5 and 15 here.
const EXAMPLE = 'tiktoken is great!';
const MIXED = 'Why does the canvas compile deterministically? Ünïcödé ✓ 日本語';

describe('tokenCounterFor', () => {
  it('estimates until the tokenizer arrives, tells subscribers, then counts exactly', async () => {
    expect(tokenCounterFor('openai/gpt-4o')).toBe(APPROXIMATE_COUNTER);
    let told = 0;
    const unsubscribe = subscribeTokenizers(() => (told += 1));
    await loadTokenizer('o200k_base');
    unsubscribe();
    expect(told).toBe(1);
    const counter = tokenCounterFor('openai/gpt-4o');
    expect(counter.exact).toBe(true);
    expect(counter.count(EXAMPLE)).toBe(6);
    expect(counter.count(MIXED)).toBe(15);
    expect(tokenCounterFor('openrouter/openai/gpt-4o-mini').count(MIXED)).toBe(15);
  });

  it('uses cl100k for gpt-4 and gpt-3.5, which counts the same text differently', async () => {
    await loadTokenizer('cl100k_base');
    expect(tokenCounterFor('openai/gpt-4').count(MIXED)).toBe(20);
    expect(tokenCounterFor('openai/gpt-3.5-turbo').count(EXAMPLE)).toBe(6);
  });

  it('counts special-token text a person typed as text instead of refusing it', async () => {
    await loadTokenizer('o200k_base');
    expect(tokenCounterFor('openai/gpt-4o').count('a <|endoftext|> b')).toBe(9);
  });

  it('an Anthropic or Ollama model gets the estimate, shown with ≈', () => {
    for (const modelId of ['anthropic/claude-sonnet-4-5', 'ollama/llama3.2', 'offline/receipt']) {
      const counter = tokenCounterFor(modelId);
      expect(counter.exact).toBe(false);
      expect(formatTokens(counter.count(EXAMPLE), counter)).toBe('≈5');
    }
    expect(formatTokens(6, { exact: true })).toBe('6');
  });
});
