import { FIXTURES } from '../../tests/support/fixtures-directory.ts';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fence } from './fence.ts';
import { readSessionFile } from './read-session-file.ts';
import { createSessionAccumulator, SessionAccumulator } from './session-accumulator.ts';

const SOURCES = [
  'real-sessions/claude/multi-turn/projects/-tmp-realsessions-out-claude-multi-turn-repo/4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b.jsonl',
  'real-sessions/codex/multi-turn/sessions/2026/11/29/rollout-2026-11-29T12-05-43-01a22732-657a-7592-b814-5874c3ab6165.jsonl',
  'sessions/codex/madshn-localpush/src-tauri/tests/fixtures/codex/2026-02-23/raw/sessions/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl',
  'sessions/pi/badlogic-pi-mono/session.jsonl',
  'sessions/pi/badlogic-pi-mono/packages/coding-agent/test/fixtures/large-session.jsonl',
  'sessions/claude-code/marot-spotter/test/fixtures/transcripts/subagent.jsonl',
];

let base: string;
let fence: Fence;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'atlas-resume-'));
  fence = new Fence([base]);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Split a file's bytes after roughly `fraction` of its lines, at a line boundary. */
function splitAt(bytes: Buffer, fraction: number): number {
  const lines: number[] = [];
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) lines.push(index + 1);
  return lines[Math.max(0, Math.floor(lines.length * fraction) - 1)]!;
}

describe('append-aware resumption', () => {
  it.each(SOURCES.map((source) => [source.split('/').pop()!, source] as const))(
    '%s: resume after an append equals a full re-read',
    async (_name, source) => {
      const bytes = readFileSync(path.join(FIXTURES, source));
      const target = path.join(base, path.basename(source));
      for (const fraction of [0.3, 0.7]) {
        const cut = splitAt(bytes, fraction);
        // A line still being written: half of the next line, no newline yet.
        const nextEnd = bytes.indexOf(0x0a, cut);
        const partial = Math.floor((cut + (nextEnd === -1 ? bytes.length : nextEnd)) / 2);
        writeFileSync(target, bytes.subarray(0, partial));
        const first = await readSessionFile(target, { fence });
        expect(first.bytesConsumed).toBe(cut);
        expect(first.report.truncatedLastLine).toBe(1);

        appendFileSync(target, bytes.subarray(partial));
        const resumed = await readSessionFile(target, { fence, fromOffset: first.bytesConsumed, state: first.state });
        expect(resumed.resumed).toBe(true);
        const full = await readSessionFile(target, { fence });
        expect(resumed.sessions).toEqual(full.sessions);
        expect(resumed.report).toEqual(full.report);
        expect(resumed.bytesConsumed).toBe(full.bytesConsumed);
        expect(resumed.prefixHash).toBe(full.prefixHash);
        expect(resumed.state).toBe(full.state);
        // Keys seen before the append are unchanged after it.
        const before = first.sessions[0]!.turns.slice(0, -1).map((turn) => turn.key);
        expect(full.sessions[0]!.turns.slice(0, before.length).map((turn) => turn.key)).toEqual(before);
      }
    },
  );

  it('lines straddling the 1 MiB read chunks are read exactly as pushed line by line', async () => {
    const bytes = readFileSync(path.join(FIXTURES, SOURCES[4]!));
    const target = path.join(base, 'straddle.jsonl');
    writeFileSync(target, Buffer.concat([bytes, bytes, bytes, bytes]));
    const result = await readSessionFile(target, { fence });
    const direct = createSessionAccumulator('pi', result.path);
    const all = readFileSync(target);
    let start = 0;
    for (let index = all.indexOf(0x0a); index !== -1; index = all.indexOf(0x0a, start)) {
      direct.push(all.subarray(start, index));
      start = index + 1;
    }
    expect(result.size).toBeGreaterThan(3 * 1024 * 1024);
    expect(result.bytesConsumed).toBe(result.size);
    expect(result.sessions).toEqual(direct.sessions());
    expect(result.report).toEqual(direct.report());
    // Repeated copies repeat entry ids: later turns get `~2`, `~3`, `~4`, keys stay unique.
    const keys = result.sessions[0]!.turns.map((turn) => turn.key);
    expect(keys).toHaveLength(4 * 88);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('resumes from a state saved by the previous format (version 1, the accumulator as a string)', async () => {
    const bytes = readFileSync(path.join(FIXTURES, SOURCES[1]!));
    const target = path.join(base, 'version-1.jsonl');
    const cut = splitAt(bytes, 0.5);
    writeFileSync(target, bytes.subarray(0, cut));
    const first = await readSessionFile(target, { fence });
    const saved = JSON.parse(first.state) as { version: number; accumulator: unknown };
    expect(saved.version).toBe(2);
    const versionOne = JSON.stringify({ ...saved, version: 1, accumulator: JSON.stringify(saved.accumulator) });
    appendFileSync(target, bytes.subarray(cut));
    const resumed = await readSessionFile(target, { fence, fromOffset: first.bytesConsumed, state: versionOne });
    expect(resumed.resumed).toBe(true);
    const full = await readSessionFile(target, { fence });
    expect(resumed.sessions).toEqual(full.sessions);
    expect(resumed.state).toBe(full.state);
  });

  it('detects a rewritten prefix and re-reads from the start', async () => {
    const source = path.join(FIXTURES, SOURCES[0]!);
    const target = path.join(base, 'rewritten.jsonl');
    copyFileSync(source, target);
    const first = await readSessionFile(target, { fence });
    const text = readFileSync(source, 'utf8').replaceAll('write tests', 'WRITE TESTS');
    writeFileSync(target, `${text}${text.split('\n')[5]}\n`);
    const again = await readSessionFile(target, { fence, fromOffset: first.bytesConsumed, state: first.state });
    expect(again.resumed).toBe(false);
    expect(again.restarted).toBe(true);
    expect(again.sessions[0]!.turns[0]!.userText).toContain('WRITE TESTS');
    expect(again.prefixHash).not.toBe(first.prefixHash);
  });

  it('detects a shrunk file', async () => {
    const target = path.join(base, 'shrunk.jsonl');
    copyFileSync(path.join(FIXTURES, SOURCES[3]!), target);
    const first = await readSessionFile(target, { fence });
    writeFileSync(target, readFileSync(target).subarray(0, 2000));
    const again = await readSessionFile(target, { fence, fromOffset: first.bytesConsumed, state: first.state });
    expect(again.restarted).toBe(true);
    expect(again.bytesConsumed).toBeLessThanOrEqual(2000);
  });

  it('a file with no trailing newline is parsed but not consumed', async () => {
    const target = path.join(base, 'no-newline.jsonl');
    mkdirSync(base, { recursive: true });
    copyFileSync(
      path.join(FIXTURES, 'sessions/codex/AcidicSoil-codex-session-view/public/demos/example-session-metadata.jsonl'),
      target,
    );
    const result = await readSessionFile(target, { fence });
    expect(result.runner).toBe('codex');
    expect(result.bytesConsumed).toBe(0);
    expect(result.sessions[0]!.sessionId).toBe('019ab22c-95af-7160-b11d-8f552d0ce721');
    expect(result.report.truncatedLastLine).toBe(0);
  });
});

describe('SessionAccumulator', () => {
  it('saves and restores mid-stream, line by line, with the same result', () => {
    const bytes = readFileSync(path.join(FIXTURES, SOURCES[1]!));
    const lines: Buffer[] = [];
    let start = 0;
    for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, start)) {
      lines.push(bytes.subarray(start, index));
      start = index + 1;
    }
    const whole = createSessionAccumulator('codex', '/x/rollout.jsonl');
    for (const line of lines) whole.push(line);
    let current = createSessionAccumulator('codex', '/x/rollout.jsonl');
    for (const line of lines) {
      current.push(line);
      current = SessionAccumulator.restore(current.saveState());
    }
    expect(current.sessions()).toEqual(whole.sessions());
    expect(current.bytesConsumed).toBe(bytes.length);
    expect(() => SessionAccumulator.restore('{"version":99}')).toThrow(/ATLAS_BAD_STATE/);
    expect(() => SessionAccumulator.restore('not json')).toThrow(/ATLAS_BAD_STATE/);
  });

  it('an unterminated tail shows in sessions() but not in bytesConsumed or saved state', () => {
    const accumulator = createSessionAccumulator('pi', '/x/s.jsonl');
    accumulator.push(
      Buffer.from(
        JSON.stringify({ type: 'session', version: 3, id: 'p1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' }),
      ),
    );
    const tail = Buffer.from(
      JSON.stringify({
        type: 'message',
        id: 'a',
        parentId: null,
        timestamp: '2026-01-01T00:00:01.000Z',
        message: { role: 'user', content: 'hi' },
      }),
    );
    const consumed = accumulator.bytesConsumed;
    accumulator.finish(tail);
    expect(accumulator.sessions()[0]!.turns).toHaveLength(1);
    expect(accumulator.bytesConsumed).toBe(consumed);
    expect(SessionAccumulator.restore(accumulator.saveState()).sessions()[0]!.turns).toHaveLength(0);
    accumulator.finish(tail.subarray(0, 20));
    expect(accumulator.report().truncatedLastLine).toBe(1);
    expect(accumulator.sessions()[0]!.turns).toHaveLength(0);
  });
});
