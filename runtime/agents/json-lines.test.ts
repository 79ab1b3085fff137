import { describe, expect, it } from 'vitest';
import { JsonLines } from './json-lines.ts';

function collect(chunks: (string | Uint8Array)[]) {
  const records: unknown[] = [];
  const noise: string[] = [];
  const lines = new JsonLines(
    (record) => records.push(record),
    (line) => noise.push(line),
  );
  for (const chunk of chunks) lines.push(chunk);
  lines.end();
  return { records, noise };
}

describe('JsonLines', () => {
  it('keeps U+2028 and U+2029 inside a record (a readline splitter would cut it)', () => {
    const { records } = collect([`{"text":"a\u2028b\u2029c"}\n`]);
    expect(records).toEqual([{ text: 'a\u2028b\u2029c' }]);
  });

  it('joins a record split across chunks, also inside a multi-byte character', () => {
    const bytes = new TextEncoder().encode('{"text":"é→"}\n{"n":2}\n');
    const { records } = collect([bytes.slice(0, 11), bytes.slice(11, 13), bytes.slice(13)]);
    expect(records).toEqual([{ text: 'é→' }, { n: 2 }]);
  });

  it('strips a trailing CR, reads a last line without newline, and hands on what is not JSON', () => {
    const { records, noise } = collect(['{"a":1}\r\nwarning: something\n\n{"b":2}']);
    expect(records).toEqual([{ a: 1 }, { b: 2 }]);
    expect(noise).toEqual(['warning: something']);
  });
});
