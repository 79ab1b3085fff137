import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../tests/support/fixtures-directory.ts';
import { Fence } from './fence.ts';
import { listSessionFilesSync } from './list-session-files.ts';
import { readSessionFile } from './read-session-file.ts';

/**
 * Codex shapes the adapter met in real files (issue 11, parts 6 and 7), on the constructed rollouts in
 * `tests/fixtures/sessions/codex/constructed/` (see SOURCES.md there).
 */
const ROOT = path.join(FIXTURES, 'sessions/codex/constructed/sessions');
const fence = new Fence([ROOT]);
const PATCHED = path.join(ROOT, '2026/03/14/rollout-2026-03-14T10-12-05-019ce8a1-5e0b-7d21-9c3f-6a1b2c3d4e5f.jsonl');
const COMPRESSED_ONLY = path.join(
  ROOT,
  '2026/03/15/rollout-2026-03-15T09-00-00-019ced00-7a10-7b42-8d5e-0f1e2d3c4b5a.jsonl.zst',
);
const PRETTY = path.join(ROOT, '2026/03/16/rollout-2026-03-16T08-30-00-019cf1a2-0b3c-7d4e-8f60-718293a4b5c6.jsonl');
const temporary: string[] = [];

afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function scratch(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'weft-codex-shapes-'));
  temporary.push(directory);
  return directory;
}

describe('Codex item types and patches', () => {
  it('reads tool_search_call and other newer *_call items as steps, with their outputs', async () => {
    const [session] = (await readSessionFile(PATCHED, { fence })).sessions;
    const steps = session!.turns[0]!.steps;
    expect(steps[0]).toMatchObject({ name: 'tool_search', op: 'search', inputSummary: 'query: ledger database tools' });
    expect(steps[0]!.resultSummary).toBe('1 tool: mcp__ledger_db');
    expect(steps.at(-1)).toMatchObject({ name: 'image_generation', callId: null });
  });

  it('attributes apply_patch run through exec_command (after a cd) and the shell to the files its patch names', async () => {
    const [session] = (await readSessionFile(PATCHED, { fence })).sessions;
    const touched = session!.turns[0]!.steps.flatMap((step) => step.files.map((file) => `${step.op} ${file}`));
    expect(touched).toEqual([
      'edit /home/dev/ledger/packages/core/src/transfer.ts',
      'write /home/dev/ledger/packages/core/src/limits.test.ts',
      'delete /home/dev/ledger/docs/old-limits.md',
      'edit /home/dev/ledger/README.md',
      'write /home/dev/ledger/docs/README.md',
    ]);
  });
});

describe('compressed rollouts (.jsonl.zst)', () => {
  it('lists a compressed rollout, and only the plain file when both are there', () => {
    const listed = listSessionFilesSync(fence).map((file) => path.relative(ROOT, file.path));
    expect(listed).toContain(path.relative(ROOT, COMPRESSED_ONLY));
    expect(listed).toContain(path.relative(ROOT, PATCHED));
    expect(listed).not.toContain(`${path.relative(ROOT, PATCHED)}.zst`);
  });

  it('reads a compressed rollout as its plain copy reads', async () => {
    const plain = await readSessionFile(PATCHED, { fence });
    const compressed = await readSessionFile(`${PATCHED}.zst`, { fence });
    expect(compressed.runner).toBe('codex');
    expect(compressed.report).toEqual(plain.report);
    const strip = (sessions: typeof plain.sessions) => sessions.map(({ sourcePath: _sourcePath, ...rest }) => rest);
    expect(strip(compressed.sessions)).toEqual(strip(plain.sessions));
    expect(compressed.bytesConsumed).toBe(compressed.size);
    const only = await readSessionFile(COMPRESSED_ONLY, { fence });
    expect(only.sessions[0]!.sessionId).toBe('019ced00-7a10-7b42-8d5e-0f1e2d3c4b5a');
    expect(only.sessions[0]!.turns[0]!.userText).toBe('Run the core package tests');
  });

  it('reads a grown compressed file again from the start (no byte offset to resume at)', async () => {
    const first = await readSessionFile(COMPRESSED_ONLY, { fence });
    const again = await readSessionFile(COMPRESSED_ONLY, {
      fence,
      fromOffset: first.bytesConsumed,
      state: first.state,
    });
    expect(again.resumed).toBe(false);
    expect(again.sessions).toEqual(first.sessions);
  });

  it('refuses data that is not zstd with a coded reason, and never leaves the fence', async () => {
    const directory = scratch();
    const root = path.join(directory, 'sessions');
    mkdirSync(root);
    writeFileSync(path.join(root, 'rollout-broken.jsonl.zst'), 'not zstd at all\n');
    const local = new Fence([root]);
    await expect(readSessionFile(path.join(root, 'rollout-broken.jsonl.zst'), { fence: local })).rejects.toMatchObject({
      code: 'ATLAS_BAD_COMPRESSION',
    });
    const outside = path.join(directory, 'outside.jsonl.zst');
    copyFileSync(COMPRESSED_ONLY, outside);
    symlinkSync(outside, path.join(root, 'linked.jsonl.zst'));
    expect(listSessionFilesSync(local).map((file) => path.basename(file.path))).not.toContain('linked.jsonl.zst');
    await expect(readSessionFile(path.join(root, 'linked.jsonl.zst'), { fence: local })).rejects.toThrow(/^FENCE_/);
  });
});

describe('files that are not one JSON record per line', () => {
  it('reads JSON values spanning lines (a pretty-printed rollout) as records', async () => {
    const read = await readSessionFile(PRETTY, { fence });
    expect(read.runner).toBe('codex');
    expect(read.report).toMatchObject({ records: 10, invalidJson: 0 });
    const [session] = read.sessions;
    expect(session!.sessionId).toBe('019cf1a2-0b3c-7d4e-8f60-718293a4b5c6');
    expect(session!.turns.map((turn) => turn.userText)).toEqual(['Summarise the ledger audit log format']);
    expect(session!.turns[0]!.steps[0]).toMatchObject({ name: 'exec_command', op: 'run' });
  });

  it('reports a file no runner wrote as failed, with its reason', async () => {
    const root = path.join(scratch(), 'sessions');
    mkdirSync(root);
    writeFileSync(path.join(root, 'metrics.jsonl'), '{"metric":"latency","value":12}\n{"metric":"errors","value":0}\n');
    writeFileSync(path.join(root, 'empty.jsonl'), '');
    const local = new Fence([root]);
    await expect(readSessionFile(path.join(root, 'metrics.jsonl'), { fence: local })).rejects.toMatchObject({
      code: 'ATLAS_NOT_A_SESSION',
    });
    // A file just created (nothing written yet) is not a failure: there is simply nothing to read.
    expect((await readSessionFile(path.join(root, 'empty.jsonl'), { fence: local })).sessions).toEqual([]);
  });
});

describe('Codex turn working directories', () => {
  it('give each turn the cwd of its own turn_context, written after the task_started that opened it', async () => {
    const root = path.join(scratch(), 'sessions');
    mkdirSync(root);
    const id = '019d0000-1111-7222-8333-444455556666';
    const line = (timestamp: string, type: string, payload: object) => JSON.stringify({ timestamp, type, payload });
    const turn = (n: number, cwd: string) => [
      line(`2026-04-01T10:0${n}:00.000Z`, 'event_msg', { type: 'task_started', turn_id: `turn-${n}` }),
      line(`2026-04-01T10:0${n}:00.010Z`, 'turn_context', { turn_id: `turn-${n}`, cwd, model: 'gpt-5.4' }),
      line(`2026-04-01T10:0${n}:00.020Z`, 'event_msg', { type: 'user_message', message: `question ${n}` }),
      line(`2026-04-01T10:0${n}:00.900Z`, 'event_msg', { type: 'task_complete', turn_id: `turn-${n}` }),
    ];
    const file = path.join(root, `rollout-2026-04-01T10-00-00-${id}.jsonl`);
    writeFileSync(
      file,
      [
        line('2026-04-01T10:00:00.000Z', 'session_meta', { id, cwd: '/home/dev/ledger' }),
        ...turn(1, '/home/dev/ledger'),
        ...turn(2, '/home/dev/ledger/packages/web'),
      ].join('\n') + '\n',
    );
    const [session] = (await readSessionFile(file, { fence: new Fence([root]) })).sessions;
    expect(session!.turns.map((entry) => [entry.userText, entry.cwd])).toEqual([
      ['question 1', '/home/dev/ledger'],
      ['question 2', '/home/dev/ledger/packages/web'],
    ]);
  });
});
