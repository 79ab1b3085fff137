import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AtlasFollow } from '../../protocol/http-api.ts';
import { FollowStore, followsPath } from './follow-store.ts';
import { SessionFollower } from './session-follower.ts';

const FIXTURES = fileURLToPath(new URL('../../tests/fixtures/real-sessions/', import.meta.url));
const PI =
  'pi/multi-turn/sessions/--tmp-realsessions-out-pi-multi-turn-repo--/2026-11-29T12-05-48-923Z_01a22732-78f8-7285-85e1-77d70ff3cfd9.jsonl';
const PI_OTHER =
  'pi/basic-tools/sessions/--tmp-realsessions-out-pi-basic-tools-repo--/2026-11-29T12-05-15-761Z_01a22731-f770-772e-87d6-0c5b4c4356ca.jsonl';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function workspace() {
  const directory = mkdtempSync(join(tmpdir(), 'weft-follow-'));
  cpSync(FIXTURES, join(directory, 'roots'), { recursive: true });
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  return {
    directory,
    home: join(directory, 'home'),
    file: join(directory, 'roots', PI),
    other: join(directory, 'roots', PI_OTHER),
  };
}

function follower(home: string, grew: AtlasFollow[]) {
  const instance = new SessionFollower({
    store: new FollowStore(followsPath(home)),
    onGrew: (follow) => void grew.push(follow),
    debounceMs: 100,
  });
  cleanups.push(() => instance.close());
  return instance;
}

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('SessionFollower', () => {
  it('reports one debounced growth per burst of appended lines, only for followed files, and never writes to them', async () => {
    const { home, file, other } = workspace();
    mkdirSync(home, { recursive: true });
    const grew: AtlasFollow[] = [];
    const instance = follower(home, grew);
    await instance.follow({ runner: 'pi', sessionId: 'pi-session', sourcePath: file, since: 1 });
    const before = statSync(file).size;
    for (let index = 0; index < 3; index += 1) appendFileSync(file, '{"type":"custom","n":' + index + '}\n');
    await until(() => grew.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(grew).toHaveLength(1);
    expect(grew[0]!.sessionId).toBe('pi-session');

    appendFileSync(other, '{"type":"custom"}\n');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(grew).toHaveLength(1);
    expect(statSync(file).size).toBe(before + 3 * '{"type":"custom","n":0}\n'.length);
  });

  it('persists follows in follows.json and resumes them after a restart', async () => {
    const { home, file } = workspace();
    mkdirSync(home, { recursive: true });
    const first = follower(home, []);
    await first.follow({ runner: 'pi', sessionId: 'kept', sourcePath: file, since: 5 });
    await first.close();
    expect(JSON.parse(readFileSync(followsPath(home), 'utf8')).follows).toEqual([
      { runner: 'pi', sessionId: 'kept', sourcePath: file, since: 5 },
    ]);
    expect(statSync(followsPath(home)).mode & 0o777).toBe(0o600);

    const grew: AtlasFollow[] = [];
    const second = follower(home, grew);
    await second.start();
    expect(second.isFollowing('pi', 'kept')).toBe(true);
    appendFileSync(file, '{"type":"custom"}\n');
    await until(() => grew.length === 1);

    await second.unfollow('pi', 'kept');
    expect(second.isFollowing('pi', 'kept')).toBe(false);
    expect(JSON.parse(readFileSync(followsPath(home), 'utf8')).follows).toEqual([]);
  });

  it('reads a damaged follows.json as no follows', async () => {
    const { home } = workspace();
    mkdirSync(home, { recursive: true });
    writeFileSync(followsPath(home), '{not json');
    const instance = follower(home, []);
    await instance.start();
    expect(instance.list()).toEqual([]);
  });

  it("resumes after a restart even when a followed session's folder was deleted meanwhile", async () => {
    const { home, file, other } = workspace();
    mkdirSync(home, { recursive: true });
    const first = follower(home, []);
    await first.follow({ runner: 'pi', sessionId: 'kept', sourcePath: file, since: 5 });
    await first.follow({ runner: 'pi', sessionId: 'gone', sourcePath: other, since: 5 });
    await first.close();
    rmSync(join(other, '..'), { recursive: true });

    const grew: AtlasFollow[] = [];
    const second = follower(home, grew);
    await second.start();
    expect(second.isFollowing('pi', 'gone')).toBe(true);
    appendFileSync(file, '{"type":"custom"}\n');
    await until(() => grew.length === 1);
    expect(grew[0]!.sessionId).toBe('kept');
    expect((await second.unfollow('pi', 'gone')).map((follow) => follow.sessionId)).toEqual(['kept']);
  }, 10_000);
});
