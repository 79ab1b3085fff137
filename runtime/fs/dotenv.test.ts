import { describe, expect, it } from 'vitest';
import { parseDotenv } from './dotenv.ts';

describe('parseDotenv', () => {
  it('reads keys, export prefixes, quotes and comments', () => {
    const text = [
      '# keys',
      'OPENAI_API_KEY=sk-one',
      'export ANTHROPIC_API_KEY="sk ant"',
      "OPENROUTER_API_KEY='or-key' ",
      'EMPTY=',
      'INLINE=value # comment',
      'not a line',
      '',
    ].join('\n');
    expect(parseDotenv(text)).toEqual({
      OPENAI_API_KEY: 'sk-one',
      ANTHROPIC_API_KEY: 'sk ant',
      OPENROUTER_API_KEY: 'or-key',
      EMPTY: '',
      INLINE: 'value',
    });
  });
});
