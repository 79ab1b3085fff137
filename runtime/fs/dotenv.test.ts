import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentWithDotenv, readDotenvFile } from './dotenv.ts';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'weft-dotenv-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function dotenv(name: string, text: string): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, text);
  return path;
}

describe('readDotenvFile', () => {
  it('reads keys, export prefixes, quotes and comments', async () => {
    const text = [
      '# keys',
      'OPENAI_API_KEY=sk-one',
      'export ANTHROPIC_API_KEY="sk ant"',
      "OPENROUTER_API_KEY='or-key' ",
      'EMPTY=',
      'INLINE=value # comment',
      'HASHED="a#b"',
      'BASE64=c2stb25l==',
      'LINES="one\\ntwo"',
      '',
    ].join('\n');
    expect(readDotenvFile(await dotenv('plain.env', text))).toEqual({
      OPENAI_API_KEY: 'sk-one',
      ANTHROPIC_API_KEY: 'sk ant',
      OPENROUTER_API_KEY: 'or-key',
      EMPTY: '',
      INLINE: 'value',
      HASHED: 'a#b',
      BASE64: 'c2stb25l==',
      LINES: 'one\ntwo',
    });
  });

  it('reads a file saved with Windows line ends without a trailing carriage return in any value', async () => {
    const path = await dotenv('windows.env', 'OPENAI_API_KEY=sk-one\r\nANTHROPIC_API_KEY="sk-two"\r\n');
    expect(readDotenvFile(path)).toEqual({ OPENAI_API_KEY: 'sk-one', ANTHROPIC_API_KEY: 'sk-two' });
  });

  it('a missing file is no values', () => {
    expect(readDotenvFile(join(scratch, 'absent.env'))).toEqual({});
  });
});

describe('environmentWithDotenv', () => {
  it('fills in what the environment lacks; a variable already set wins, even when empty', async () => {
    const path = await dotenv(
      'keys.env',
      'OPENAI_API_KEY=from-file\nANTHROPIC_API_KEY=from-file\nEMPTY_SET=from-file\n',
    );
    expect(environmentWithDotenv({ OPENAI_API_KEY: 'from-env', EMPTY_SET: '' }, path)).toEqual({
      OPENAI_API_KEY: 'from-env',
      ANTHROPIC_API_KEY: 'from-file',
      EMPTY_SET: '',
    });
  });

  it('reads nothing when there is no path', () => {
    expect(environmentWithDotenv({ A: '1' }, null)).toEqual({ A: '1' });
  });
});
