import { FIXTURES } from '../../tests/support/fixtures-directory.ts';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Runner } from '../../protocol/atlas-session.ts';
import { Fence } from './fence.ts';
import { MAX_LINE_BYTES } from './line-decoder.ts';
import { readSessionFile } from './read-session-file.ts';
import { createSessionAccumulator, SessionAccumulator as SessionAccumulatorForTest } from './session-accumulator.ts';

const SEEDS: [Runner, string][] = [
  [
    'claude-code',
    'real-sessions/claude/basic-tools/projects/-tmp-realsessions-out-claude-basic-tools-repo/fb8acab2-b67b-454f-91b5-f87d156f0f09.jsonl',
  ],
  ['claude-code', 'sessions/claude-code/marot-spotter/test/fixtures/transcripts/subagent.jsonl'],
  [
    'codex',
    'sessions/codex/madshn-localpush/src-tauri/tests/fixtures/codex/2026-02-23/raw/sessions/rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl',
  ],
  [
    'codex',
    'real-sessions/codex/basic-tools/sessions/2026/11/29/rollout-2026-11-29T12-05-10-01a22731-e203-7a90-a141-a1a3778f3fdf.jsonl',
  ],
  ['pi', 'sessions/pi/badlogic-pi-mono/packages/coding-agent/test/fixtures/large-session.jsonl'],
];

function seedLines(file: string): string[] {
  return readFileSync(path.join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.endsWith('}'));
}

type Mutation =
  'truncate' | 'glue' | 'notObject' | 'wrongField' | 'badUtf8' | 'lineSeparator' | 'empty' | 'crlf' | 'intact';

/** Record types each adapter reads (others are counted as unknown types, not as wrong shapes). */
const READ_TYPES = new Set([
  'user',
  'assistant',
  'message',
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
]);

/** Replace the object field a read record relies on (`message` / `payload`) with a number. */
function wrongField(line: string): string {
  const record = JSON.parse(line) as Record<string, unknown>;
  if (!READ_TYPES.has(String(record['type']))) return '';
  for (const key of ['message', 'payload']) {
    if (key in record) {
      record[key] = 42;
      return JSON.stringify(record);
    }
  }
  return '';
}

describe('fuzz: mutated real lines never crash and every oddity is counted', () => {
  it.each(SEEDS)('%s %s', (runner, file) => {
    const lines = seedLines(file);
    const mutations: Mutation[] = [
      'truncate',
      'glue',
      'notObject',
      'wrongField',
      'badUtf8',
      'lineSeparator',
      'empty',
      'crlf',
      'intact',
    ];
    const expected = { truncate: 0, glue: 0, notObject: 0, wrongField: 0, badUtf8: 0, empty: 0 };
    const accumulator = createSessionAccumulator(runner, `/fuzz/${path.basename(file)}`);
    let pushed = 0;
    const cases = fc.sample(
      fc.record({
        index: fc.nat(),
        other: fc.nat(),
        mutation: fc.constantFrom(...mutations),
        cut: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
      }),
      { numRuns: 2200, seed: 42 },
    );
    for (const { index, other, mutation, cut } of cases) {
      const line = lines[index % lines.length]!;
      let bytes: Buffer;
      switch (mutation) {
        case 'truncate':
          bytes = Buffer.from(line.slice(0, Math.max(1, Math.floor(line.length * cut))));
          expected.truncate += 1;
          break;
        case 'glue':
          bytes = Buffer.from(line + lines[other % lines.length]!);
          expected.glue += 1;
          break;
        case 'notObject':
          bytes = Buffer.from(JSON.stringify([[1, 'a'], 7, 'text', null, true][other % 5]));
          expected.notObject += 1;
          break;
        case 'wrongField': {
          const mutated = wrongField(line);
          if (mutated === '') continue;
          bytes = Buffer.from(mutated);
          expected.wrongField += 1;
          break;
        }
        case 'badUtf8': {
          const at = line.indexOf('"type":"') + 8;
          if (at < 8) continue;
          bytes = Buffer.concat([
            Buffer.from(line.slice(0, at)),
            Buffer.from([0xc3, 0x28, 0xff]),
            Buffer.from(line.slice(at)),
          ]);
          expected.badUtf8 += 1;
          break;
        }
        case 'lineSeparator': {
          // U+2028 inside a string is valid JSON and must not split the line.
          const at = line.indexOf('"type":"') + 8;
          if (at < 8) continue;
          bytes = Buffer.from(`${line.slice(0, at)}\u2028\u2029${line.slice(at)}`);
          break;
        }
        case 'empty':
          bytes = Buffer.from(other % 2 === 0 ? '' : '   \r');
          expected.empty += 1;
          break;
        case 'crlf':
          bytes = Buffer.from(`${line}\r`);
          break;
        default:
          bytes = Buffer.from(line);
      }
      expect(() => accumulator.push(bytes)).not.toThrow();
      pushed += 1;
    }
    expect(() => accumulator.finish(Buffer.from(lines[0]!.slice(0, 30)))).not.toThrow();
    const report = accumulator.report();
    expect(report.lines).toBe(pushed + 1);
    expect(report.emptyLines).toBe(expected.empty);
    expect(report.invalidJson).toBe(expected.truncate);
    expect(report.gluedObjects).toBe(expected.glue);
    expect(report.invalidUtf8).toBe(expected.badUtf8);
    expect(report.wrongShape).toBe(expected.notObject + expected.wrongField);
    expect(report.truncatedLastLine).toBe(1);
    expect(pushed).toBeGreaterThanOrEqual(2000);
    const sessions = accumulator.sessions();
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions[0]!.turns.length).toBeGreaterThan(0);
  });

  it.each(['claude-code', 'codex', 'pi'] as const)('%s: arbitrary bytes and arbitrary JSON never throw', (runner) => {
    const accumulator = createSessionAccumulator(runner, '/fuzz/random.jsonl');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc.json().map((text) => Buffer.from(text)),
          fc.object().map((value) => Buffer.from(JSON.stringify(value))),
        ),
        (bytes) => {
          accumulator.push(bytes);
          accumulator.sessions();
        },
      ),
      { numRuns: 1500, seed: 7 },
    );
    expect(accumulator.report().lines).toBe(1500);
  });

  it('a 50 MB line is skipped whole, counted, and reading resumes on the next line', async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'atlas-huge-'));
    try {
      const file = path.join(base, 'huge.jsonl');
      const lines = seedLines(SEEDS[4]![1]);
      const handle = openSync(file, 'w');
      writeSync(handle, `${lines[0]}\n${lines[1]}\n`);
      const prefix = Buffer.from('{"type":"message","id":"big","message":{"role":"user","content":"');
      writeSync(handle, prefix);
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      for (let written = 0; written < 50; written += 1) writeSync(handle, chunk);
      writeSync(handle, '"}}\n');
      for (const line of lines.slice(2, 40)) writeSync(handle, `${line}\n`);
      closeSync(handle);
      const result = await readSessionFile(file, { fence: new Fence([base]) });
      expect(50 * 1024 * 1024).toBeGreaterThan(MAX_LINE_BYTES);
      expect(result.report.oversizedLines).toBe(1);
      expect(result.report.lines).toBe(41);
      expect(result.report.invalidJson).toBe(0);
      expect(result.bytesConsumed).toBe(result.size);
      const direct = createSessionAccumulator('pi', file);
      for (const line of [lines[0]!, lines[1]!, ...lines.slice(2, 40)]) direct.push(Buffer.from(line));
      expect(result.sessions[0]!.turns.map((turn) => turn.key)).toEqual(
        direct.sessions()[0]!.turns.map((turn) => turn.key),
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('ids that collide with Object.prototype', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '%s as record id, call id and record type',
    (id) => {
      const claude = createSessionAccumulator('claude-code', '/x/c.jsonl');
      const lines = [
        { type: 'user', uuid: id, sessionId: 's', message: { role: 'user', content: 'a' } },
        { type: 'user', uuid: id, sessionId: 's', message: { role: 'user', content: 'b' } },
        {
          type: 'assistant',
          uuid: 'a1',
          sessionId: 's',
          message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: '/f' } }] },
        },
        {
          type: 'user',
          uuid: 'r1',
          sessionId: 's',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
        },
        { type: id, sessionId: 's' },
      ];
      for (const line of lines) claude.push(Buffer.from(JSON.stringify(line)));
      const restored = SessionAccumulatorForTest.restore(claude.saveState());
      for (const accumulator of [claude, restored]) {
        const session = accumulator.sessions()[0]!;
        expect(session.turns.map((turn) => turn.openingRecordId)).toEqual([id, `${id}~2`]);
        expect(session.turns[1]!.steps[0]!.resultSummary).toBe('ok');
        expect(Object.hasOwn(accumulator.report().unknownRecordTypes, id)).toBe(true);
      }
      const pi = createSessionAccumulator('pi', '/x/p.jsonl');
      pi.push(
        Buffer.from(JSON.stringify({ type: 'message', id, parentId: id, message: { role: 'user', content: 'x' } })),
      );
      expect(pi.sessions()[0]!.turns).toHaveLength(1);
    },
  );
});
