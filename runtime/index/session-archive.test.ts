import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_BASIC, CLAUDE_HELLO, CLAUDE_MULTI_TURN, copyFixtures, type FixtureWorkspace } from './fixture-roots.ts';
import { purgeArchive, WhyIndex } from './why-index.ts';

const BASIC_SESSION = 'fb8acab2-b67b-454f-91b5-f87d156f0f09';
const workspaces: FixtureWorkspace[] = [];
const indexes: WhyIndex[] = [];

afterEach(() => {
  for (const index of indexes.splice(0)) index.close();
  for (const space of workspaces.splice(0)) rmSync(space.directory, { recursive: true, force: true });
});

function setup(): { space: FixtureWorkspace; open: () => WhyIndex } {
  const space = copyFixtures('weft-archive-');
  workspaces.push(space);
  const open = () => {
    const index = WhyIndex.open({ env: space.env });
    indexes.push(index);
    return index;
  };
  return { space, open };
}

function writeSettings(space: FixtureWorkspace, archive: object): void {
  mkdirSync(space.weftHome, { recursive: true, mode: 0o700 });
  writeFileSync(join(space.weftHome, 'settings.json'), JSON.stringify({ sessionArchive: archive }));
}

function walk(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? [path, ...walk(path)] : [path];
  });
}

describe('the session archive (preservation on by default)', () => {
  it('keeps a private compressed copy of every session file it indexes, byte for byte', async () => {
    const { space, open } = setup();
    const index = open();
    const summary = await index.index();
    expect(summary.failed).toEqual([]);
    const status = index.status();
    expect(status.archive).toMatchObject({ enabled: true, runners: ['claude-code', 'codex', 'pi'] });
    // Every session file with a complete record (one demo file in the fixtures has none).
    const withRecords = index.database
      .prepare("SELECT count(*) FROM sources WHERE kind = 'session' AND bytes_read > 0")
      .pluck()
      .get() as number;
    expect(status.archive.sessions).toBe(withRecords);
    expect(withRecords).toBeGreaterThan(30);
    expect(status.archive.bytes).toBeLessThan(status.archive.sourceBytes);
    const archive = join(space.weftHome, 'archive');
    expect(statSync(archive).mode & 0o777).toBe(0o700);
    for (const path of walk(archive)) {
      expect(statSync(path).mode & 0o777, path).toBe(statSync(path).isDirectory() ? 0o700 : 0o600);
    }
    const source = join(space.roots[0]!, CLAUDE_BASIC);
    const kept = walk(archive).filter((path) => path.endsWith('.jsonl.gz'));
    expect(kept.some((path) => gunzipSync(readFileSync(path)).equals(readFileSync(source)))).toBe(true);
  });

  it('a session whose file was deleted stays answerable (why, find, recall), marked source deleted, also after a rebuild', async () => {
    const { space, open } = setup();
    const index = open();
    await index.index();
    rmSync(join(space.roots[0]!, CLAUDE_BASIC));
    const summary = await index.refresh();
    expect(summary).toMatchObject({ removed: 0, sourceDeleted: 1 });
    const check = (answering: WhyIndex) => {
      const write = answering.why(CLAUDE_HELLO, { cwd: '/' }).hits.find((hit) => hit.sessionId === BASIC_SESSION);
      expect(write).toMatchObject({ turn: 1, sourceDeleted: true });
      const found = answering.find('exporting a greet', { in: 'question' });
      expect(found.map((hit) => [hit.sessionId, hit.sourceDeleted])).toContainEqual([BASIC_SESSION, true]);
      const turn = answering.recall({ sessionId: BASIC_SESSION, turn: 1 });
      expect(turn).toMatchObject({ sourceDeleted: true, sourcePath: join(space.roots[0]!, CLAUDE_BASIC) });
      expect(turn.question).toContain('Create src/hello.ts exporting a greet(name) function');
      expect(answering.status().archive.sourceDeleted).toBe(1);
      // Sessions still there are not marked.
      expect(answering.find('first item as done', { in: 'question' })[0]!.sourceDeleted).toBe(false);
    };
    check(index);
    // A fresh index (schema change, `weft purge`, `weft index --full`) reads the session from its copy.
    const rebuilt = await index.rebuild();
    expect(rebuilt.failed).toEqual([]);
    check(index);
    // The stat pass after that changes nothing.
    expect(await index.refresh()).toMatchObject({ removed: 0, sourceDeleted: 0, fullReads: 0 });
    check(index);
  });

  it('a file that grew is appended to its copy, and the copy holds the turns added before it was deleted', async () => {
    const { space, open } = setup();
    const path = join(space.roots[0]!, CLAUDE_MULTI_TURN);
    const lines = readFileSync(path, 'utf8').split('\n');
    const head = `${lines.slice(0, 35).join('\n')}\n`;
    writeFileSync(path, head);
    const index = open();
    await index.index();
    appendFileSync(path, lines.slice(35).join('\n'));
    expect(await index.refresh()).toMatchObject({ appendReads: 1, archived: 1 });
    rmSync(path);
    await index.refresh();
    await index.rebuild();
    const second = index.find('Mark the first item as done', {
      in: 'question',
      cwd: '/tmp/realsessions/out/claude/multi-turn/repo',
    });
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ turn: 2, sourceDeleted: true });
  });

  it('files indexed while preservation was off are copied once it is on', async () => {
    const { space, open } = setup();
    writeSettings(space, { enabled: false, runners: { 'claude-code': true, codex: true, pi: true } });
    const index = open();
    await index.index();
    expect(index.status().archive).toMatchObject({ enabled: false, runners: [], sessions: 0 });
    writeSettings(space, { enabled: true, runners: { 'claude-code': true, codex: true, pi: true } });
    const summary = await index.refresh();
    expect(summary.archived).toBeGreaterThan(30);
    expect(summary.archived).toBe(index.status().archive.sessions);
    expect(summary.fullReads).toBe(0);
    rmSync(join(space.roots[0]!, CLAUDE_BASIC));
    await index.refresh();
    expect(index.recall({ sessionId: BASIC_SESSION, turn: 1 }).sourceDeleted).toBe(true);
  });

  it('a runner switched off drops its copies and the sessions whose file is gone; weft purge --archive drops all', async () => {
    const { space, open } = setup();
    const index = open();
    await index.index();
    const kept = index.status().archive.sessions - 1;
    rmSync(join(space.roots[0]!, CLAUDE_BASIC));
    await index.refresh();
    expect(index.recall({ sessionId: BASIC_SESSION, turn: 1 }).sourceDeleted).toBe(true);

    writeSettings(space, { enabled: true, runners: { 'claude-code': false, codex: true, pi: true } });
    expect(await index.refresh()).toMatchObject({ removed: 1 });
    expect(() => index.recall({ sessionId: BASIC_SESSION, turn: 1 })).toThrow(/no turn/);
    const archive = join(space.weftHome, 'archive');
    expect(readdirSync(archive).sort()).toEqual(['codex', 'pi']);
    expect(index.status().archive.runners).toEqual(['codex', 'pi']);

    purgeArchive({ env: space.env });
    expect(() => statSync(archive)).toThrow();
    writeSettings(space, { enabled: true, runners: { 'claude-code': true, codex: true, pi: true } });
    await index.refresh();
    // Copies of the files still there are made again at the next update; the deleted one is gone for good.
    expect(index.status().archive.sessions).toBe(kept);
    expect(() => index.recall({ sessionId: BASIC_SESSION, turn: 1 })).toThrow(/no turn/);
  });

  it('refuses a WEFT_HOME that reaches into a session root through a symlink, so no copy is written under a root', () => {
    const { space } = setup();
    const inside = join(space.roots[0]!, 'claude', 'weft-home-inside');
    mkdirSync(inside);
    const link = join(space.directory, 'linked-home');
    symlinkSync(inside, link);
    expect(() => WhyIndex.open({ env: { ...space.env, WEFT_HOME: link } })).toThrow(/inside the session root/);
    expect(readdirSync(inside)).toEqual([]);
  });
});
