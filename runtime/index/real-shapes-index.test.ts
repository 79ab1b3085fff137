import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturesDirectory } from './fixture-roots.ts';
import { WhyIndex } from './why-index.ts';

/**
 * The why index over Claude Code shapes met in real files (issue 11, parts 1–4): continued sessions,
 * inline subagent runs in other folders, failed tool calls and interrupt markers.
 */
const ORIGINAL = '5f0c2a9e-3b1d-4c6e-9a7f-1d2e3f405161';
const CONTINUED = '8a4b6c2d-7e9f-4a1b-8c3d-5e6f70819203';
const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function indexConstructed(): Promise<WhyIndex> {
  const directory = mkdtempSync(join(tmpdir(), 'weft-shapes-'));
  const root = join(directory, 'projects');
  cpSync(join(fixturesDirectory(), 'sessions/claude-code/constructed/projects'), root, { recursive: true });
  mkdirSync(join(directory, 'memory'));
  const index = WhyIndex.open({
    env: {
      HOME: join(directory, 'home'),
      WEFT_HOME: join(directory, 'weft-home'),
      WEFT_SESSION_ROOTS: [root].join(delimiter),
      WEFT_MEMORY_ROOTS: join(directory, 'memory'),
    },
    home: join(directory, 'home'),
  });
  cleanups.push(() => {
    index.close();
    rmSync(directory, { recursive: true, force: true });
  });
  const summary = await index.index();
  expect(summary.failed).toEqual([]);
  return index;
}

describe('why index over continued sessions, inline runs, failures and interrupts', () => {
  it('writes each turn once, in the session of the file it is from, and recalls the new session by number', async () => {
    const index = await indexConstructed();
    const turns = index.database
      .prepare(
        `SELECT s.session_id AS sessionId, count(*) AS turns FROM turns t JOIN sessions s ON s.id = t.session_row
         WHERE s.session_id IN (?, ?) GROUP BY s.session_id ORDER BY s.session_id`,
      )
      .all(ORIGINAL, CONTINUED);
    expect(turns).toEqual([
      { sessionId: ORIGINAL, turns: 2 },
      { sessionId: CONTINUED, turns: 2 },
    ]);
    const first = index.recall({ sessionId: CONTINUED, turn: 1 });
    expect(first.question).toBe('Write a CHANGELOG for the release');
    expect(index.recall({ sessionId: ORIGINAL, turn: 1 }).question).toBe('Add a README for the shop service');
  });

  it('lists a failed write as `write (failed)`, hidden by default like reads; recall still shows the step', async () => {
    const index = await indexConstructed();
    const cwd = '/';
    const failed = index.why('/home/dev/shop/CHANGELOG.md', { cwd });
    // Nothing else touched it, so the failed turn shows (as reads do), marked.
    expect(failed.hits.map((hit) => hit.op)).toEqual(['write (failed)']);
    expect(index.why('/home/dev/shop/README.md', { cwd }).hits.map((hit) => hit.op)).toEqual(['write']);
    // A folder other turns wrote in: the failed turn is hidden unless asked for, and counted.
    const shop = index.why('/home/dev/shop', { cwd });
    expect(shop.hits.map((hit) => hit.op)).toContain('write');
    expect(shop.hits.map((hit) => hit.op)).not.toContain('write (failed)');
    expect(shop.hiddenReads).toBeGreaterThanOrEqual(1);
    expect(index.why('/home/dev/shop', { cwd, includeRead: true }).hits.map((hit) => hit.op)).toContain(
      'write (failed)',
    );
    // #29: each why hit says how its turn is known.
    expect(failed.hits[0]).toMatchObject({ knownAs: expect.stringMatching(/^(observed|reconstructed)$/) });
    const recalled = index.recall({ turnKey: failed.hits[0]!.turnKey });
    expect(recalled.steps).toEqual([expect.objectContaining({ name: 'Write', isError: true })]);
  });

  it('keeps interrupt markers out of the question and the search, as the turn status', async () => {
    const index = await indexConstructed();
    expect(index.find('Request interrupted', { in: 'question' })).toEqual([]);
    expect(index.recall({ sessionId: CONTINUED, turn: 1 }).status).toBe('interrupted-tool-use');
    expect(index.recall({ sessionId: CONTINUED, turn: 2 }).status).toBe('interrupted');
    expect(index.recall({ sessionId: ORIGINAL, turn: 1 }).status).toBeNull();
    // #29: an interrupted turn is known as reconstructed (its completeness named); a whole one as observed.
    expect(index.recall({ sessionId: CONTINUED, turn: 2 })).toMatchObject({
      knownAs: 'reconstructed',
      completeness: 'interrupted',
    });
    expect(index.recall({ sessionId: ORIGINAL, turn: 1 })).toMatchObject({ knownAs: 'observed', completeness: null });
  });

  it("filters find --cwd by each turn's own working directory (inline runs and cwd changes included)", async () => {
    const index = await indexConstructed();
    const web = index.find('alt', { cwd: '/home/dev/shop/packages/web' });
    expect(web.length).toBeGreaterThan(0);
    for (const hit of web) expect(hit.cwd).toBe('/home/dev/shop/packages/web');
    // The main session's second turn was asked in packages/web (the session started in /home/dev/shop).
    expect(web.some((hit) => hit.sessionId === 'c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b' && hit.turn === 2)).toBe(true);
    const api = index.find('unhandled promise rejections', { in: 'question', cwd: '/home/dev/shop/packages/api' });
    expect(api.map((hit) => hit.sessionId)).toEqual([
      'c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b/sidechain-c3100000-0000-4000-8000-000000000001',
    ]);
    expect(index.find('unhandled promise rejections', { in: 'question', cwd: '/home/dev/shop/packages/web' })).toEqual(
      [],
    );
  });
});
