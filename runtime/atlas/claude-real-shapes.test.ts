import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../tests/support/fixtures-directory.ts';
import { Fence } from './fence.ts';
import { readSessionFile } from './read-session-file.ts';

/**
 * Claude Code shapes the adapters met in real files (issue 11, parts 1–4), on the constructed files in
 * `tests/fixtures/sessions/claude-code/constructed/` (see SOURCES.md there).
 */
const fence = new Fence([FIXTURES]);
const PROJECT = path.join(FIXTURES, 'sessions/claude-code/constructed/projects/-home-dev-shop');
const ORIGINAL = '5f0c2a9e-3b1d-4c6e-9a7f-1d2e3f405161';
const CONTINUED = '8a4b6c2d-7e9f-4a1b-8c3d-5e6f70819203';
const INLINE = 'c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b';

async function read(id: string) {
  return readSessionFile(path.join(PROJECT, `${id}.jsonl`), { fence });
}

describe('a continued Claude Code session (its file starts with copies of the session it continues)', () => {
  it("is the file's own session: only its own turns, linked to the session the copies came from", async () => {
    const original = await read(ORIGINAL);
    const continued = await read(CONTINUED);
    expect(original.sessions).toHaveLength(1);
    expect(continued.sessions).toHaveLength(1);
    const [before] = original.sessions;
    const [after] = continued.sessions;
    expect(after!.sessionId).toBe(CONTINUED);
    expect(after!.turns.map((turn) => turn.userText)).toEqual([
      'Write a CHANGELOG for the release',
      'Put the release notes in docs/CHANGES.md instead',
    ]);
    expect(after!.turns[0]!.number).toBe(1);
    expect(after!.continuesSessionId).toBe(ORIGINAL);
    expect(after!.copiedRecords).toBe(8);
    expect(after!.parentSessionId).toBe(ORIGINAL);
    expect(after!.parentTurnKey).toBe(before!.turns[1]!.key);
    expect(after!.isSubagent).toBe(false);
    // No two turns of the two files share a key.
    const keys = [...before!.turns, ...after!.turns].map((turn) => turn.key);
    expect(new Set(keys).size).toBe(4);
    expect(after!.cwd).toBe('/home/dev/shop');
    expect(after!.startedAt).toBe(Date.parse('2025-11-21T14:00:00.000Z'));
  });

  it('keeps a failed Write as a failed step', async () => {
    const [session] = (await read(CONTINUED)).sessions;
    const step = session!.turns[0]!.steps[0]!;
    expect(step).toMatchObject({ name: 'Write', op: 'write', isError: true, files: ['/home/dev/shop/CHANGELOG.md'] });
    expect(step.resultSummary).toContain('Permission prompt was aborted');
    expect(session!.turns[1]!.steps[0]).toMatchObject({ op: 'write', isError: false });
  });

  it('reads interrupt markers as turn status, never as question text', async () => {
    const [session] = (await read(CONTINUED)).sessions;
    expect(session!.turns.map((turn) => turn.status)).toEqual(['interrupted-tool-use', 'interrupted']);
    for (const turn of session!.turns) expect(turn.userText).not.toContain('Request interrupted');
  });
});

describe('inline subagent runs (isSidechain records in the main file of older builds)', () => {
  it("take the cwd of their own records, not of the record before them; every turn has its opening record's cwd", async () => {
    const { sessions } = await read(INLINE);
    const [main, api, web] = sessions;
    expect(main!.cwd).toBe('/home/dev/shop');
    expect(main!.turns.map((turn) => turn.cwd)).toEqual(['/home/dev/shop', '/home/dev/shop/packages/web']);
    expect(main!.turns[1]!.steps[0]!.files).toEqual(['/home/dev/shop/packages/web/src/Hero.tsx']);
    expect(api!.isSubagent).toBe(true);
    expect(api!.cwd).toBe('/home/dev/shop/packages/api');
    expect(api!.turns[0]!.cwd).toBe('/home/dev/shop/packages/api');
    expect(api!.turns[0]!.steps[0]!.files).toEqual(['/home/dev/shop/packages/api/src/server.ts']);
    expect(web!.cwd).toBe('/home/dev/shop/packages/web');
    expect(api!.parentTurnKey).toBe(main!.turns[0]!.key);
    expect(web!.parentTurnKey).toBe(main!.turns[0]!.key);
  });
});

describe('interrupt markers in the real marot/spotter transcripts (CC 2.1.38)', () => {
  const SPOTTER = path.join(FIXTURES, 'sessions/claude-code/marot-spotter/test/fixtures/transcripts');
  const statusOf = async (name: string) =>
    (await readSessionFile(path.join(SPOTTER, name), { fence })).sessions[0]!.turns.map((turn) => ({
      status: turn.status,
      marker: turn.userText.includes('Request interrupted'),
    }));

  it('are the status of the turn they end, and never part of its question', async () => {
    expect(await statusOf('short.jsonl')).toEqual([{ status: 'interrupted-tool-use', marker: false }]);
    expect(await statusOf('tool_heavy.jsonl')).toEqual([
      { status: 'interrupted', marker: false },
      { status: null, marker: false },
      { status: 'interrupted', marker: false },
    ]);
    expect((await statusOf('subagent.jsonl'))[0]).toEqual({ status: 'interrupted', marker: false });
  });
});
