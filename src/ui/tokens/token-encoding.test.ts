import { describe, expect, it } from 'vitest';
import { tokenizerEncodingFor } from './token-encoding.ts';

describe('tokenizerEncodingFor', () => {
  it.each([
    ['openai/gpt-4o', 'o200k_base'],
    ['openai/gpt-4o-mini', 'o200k_base'],
    ['openai/gpt-4.1', 'o200k_base'],
    ['openai/gpt-4.1-mini', 'o200k_base'],
    ['openai/gpt-5', 'o200k_base'],
    ['openai/o1', 'o200k_base'],
    ['openai/o3-mini', 'o200k_base'],
    ['openai/o4-mini', 'o200k_base'],
    ['openai/gpt-oss-120b', 'o200k_base'],
    ['openrouter/openai/gpt-4o-mini', 'o200k_base'],
    ['openai/gpt-4', 'cl100k_base'],
    ['openai/gpt-4-turbo', 'cl100k_base'],
    ['openai/gpt-4-0613', 'cl100k_base'],
    ['openai/gpt-3.5-turbo', 'cl100k_base'],
    // Dated ids gpt-tokenizer's table does not list are still the cl100k family.
    ['openai/gpt-3.5-turbo-16k', 'cl100k_base'],
    ['openai/gpt-4-32k-0314', 'cl100k_base'],
  ])('%s counts with %s', (modelId, encoding) => {
    expect(tokenizerEncodingFor(modelId)).toBe(encoding);
  });

  it.each([
    'anthropic/claude-sonnet-4-5',
    'openrouter/anthropic/claude-sonnet-4.5',
    'openrouter/meta-llama/llama-3.3-70b-instruct',
    'ollama/llama3.2',
    'offline/receipt',
    'lmstudio/gpt-4o',
    'openai/text-davinci-003',
    '',
  ])('%s has no public tokenizer Weft loads', (modelId) => {
    expect(tokenizerEncodingFor(modelId)).toBeNull();
  });
});
