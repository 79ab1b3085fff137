import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaneCodexSessions, checkSessionRoot, resolveSessionRoots } from '../atlas/index.ts';
import { SettingsStore } from '../fs/index.ts';
import { CLAUDE_HELLO, copyFixtures, type FixtureWorkspace } from './fixture-roots.ts';
import { WhyIndex } from './why-index.ts';

/** path → sha256 of content + mode + mtime + size of every entry under `root` (folders by their stamp). */
function snapshot(root: string): Map<string, string> {
  const result = new Map<string, string>();
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory).sort()) {
      const full = path.join(directory, name);
      const info = lstatSync(full);
      const stamp = `${info.mode}:${info.mtimeMs}:${info.size}`;
      if (info.isDirectory()) {
        result.set(full, `dir:${stamp}`);
        walk(full);
      } else result.set(full, `${createHash('sha256').update(readFileSync(full)).digest('hex')}:${stamp}`);
    }
  };
  walk(root);
  return result;
}

let space: FixtureWorkspace;
let root: string;
let env: NodeJS.ProcessEnv;
let home: string;

beforeAll(() => {
  space = copyFixtures('weft-chosen-roots-');
  root = space.roots[0]!;
  home = space.env.HOME!;
  mkdirSync(home, { recursive: true });
  mkdirSync(space.weftHome, { recursive: true });
  // Settings decide here: no WEFT_SESSION_ROOTS.
  env = { ...space.env };
  delete env.WEFT_SESSION_ROOTS;
  execFileSync('chmod', ['-R', 'a-w', root]);
});
afterAll(() => {
  execFileSync('chmod', ['-R', 'u+w', root]);
  rmSync(space.directory, { recursive: true, force: true });
});

const chooseRoots = (roots: string[]) =>
  new SettingsStore(space.weftHome).update((current) => ({ ...current, sessionRoots: roots }));

describe('a session root chosen in Settings', () => {
  it('is checked, indexed, answered from and removed without a byte under it changing', async () => {
    const before = snapshot(root);
    expect(before.size).toBeGreaterThan(30);
    const appFolder = fileURLToPath(new URL('../../', import.meta.url));
    const real = await checkSessionRoot(root, { home, weftHome: space.weftHome, appFolders: [appFolder], roots: [] });
    expect(real).toBe(root);
    await chooseRoots([real]);
    expect(resolveSessionRoots(env, home)).toEqual({
      roots: [root, agentLaneCodexSessions(space.weftHome)],
      source: 'settings',
    });

    const index = WhyIndex.open({ env, home });
    try {
      await index.index();
      await index.refresh();
      const status = index.status();
      expect(status.roots).toEqual([root, agentLaneCodexSessions(space.weftHome)]);
      expect(status.sessions).toBeGreaterThan(10);
      expect(index.why(CLAUDE_HELLO, { cwd: home, all: true, limit: 10 }).hits.length).toBeGreaterThan(0);
      // The archive (on by default) copied the files: into WEFT_HOME, never beside them.
      expect(status.archive.sessions).toBeGreaterThan(0);
    } finally {
      index.close();
    }

    await chooseRoots([]);
    const after = WhyIndex.open({ env, home });
    try {
      await after.refresh();
      expect(after.status().sessions).toBe(0);
      // A full pass reads the archive's copies back only for roots still read.
      await after.rebuild();
      expect(after.status().sessions).toBe(0);
    } finally {
      after.close();
    }
    expect(snapshot(root)).toEqual(before);
  });
});
