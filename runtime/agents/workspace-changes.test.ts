import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_CHANGES_TOOL } from '../../protocol/index.ts';
import type { Footprint } from './agent-events.ts';
import { workspaceChanges } from './workspace-changes.ts';
import { snapshotWorkspace } from './workspace-snapshot.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const scratch = () => {
  const folder = mkdtempSync(join(tmpdir(), 'weft-workspace-'));
  folders.push(folder);
  return folder;
};

function gitRepository(): string {
  const repo = scratch();
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: repo });
  git('init', '-q');
  writeFileSync(join(repo, 'kept.txt'), 'kept\n');
  writeFileSync(join(repo, 'edited.txt'), 'one\n');
  writeFileSync(join(repo, 'removed.txt'), 'gone soon\n');
  writeFileSync(join(repo, 'dirty.txt'), 'committed\n');
  git('add', '.');
  git('commit', '-qm', 'start');
  // Dirty before the turn: a change the person made, which the turn must not be blamed for unless it changes it.
  writeFileSync(join(repo, 'dirty.txt'), 'the person edited this\n');
  writeFileSync(join(repo, 'untracked-before.txt'), 'untracked\n');
  return repo;
}

const toolWrite = (path: string): Footprint => ({
  toolCallId: 't1',
  toolName: 'write',
  args: { path },
  files: [{ path, op: 'write' }],
  exitCode: null,
  error: null,
});

describe('workspaceChanges: the files a turn changed that no tool call named (C24)', () => {
  it('in a Git repository: created, modified (a file already dirty too), deleted; untouched changes are not blamed', async () => {
    const repo = gitRepository();
    const before = await snapshotWorkspace(repo);
    expect(before.method).toBe('git-status');
    // What the turn's shell commands do.
    mkdirSync(join(repo, 'made'));
    writeFileSync(join(repo, 'made', 'by-shell.txt'), 'x\n');
    appendFileSync(join(repo, 'edited.txt'), 'two\n');
    appendFileSync(join(repo, 'dirty.txt'), 'and the agent too\n');
    rmSync(join(repo, 'removed.txt'));
    writeFileSync(join(repo, 'by-tool.txt'), 'named by the write tool\n');
    const after = await snapshotWorkspace(repo, before);
    const footprint = workspaceChanges(before, after, [toolWrite('by-tool.txt')], repo);
    expect(footprint).toMatchObject({ toolName: WORKSPACE_CHANGES_TOOL, error: null });
    expect(footprint!.files).toEqual([
      { path: join(repo, 'dirty.txt'), op: 'modified', by: 'shell' },
      { path: join(repo, 'edited.txt'), op: 'modified', by: 'shell' },
      { path: join(repo, 'made', 'by-shell.txt'), op: 'created', by: 'shell' },
      { path: join(repo, 'removed.txt'), op: 'deleted', by: 'shell' },
    ]);
  });

  it('a file put back as committed counts as modified; a turn that changes nothing adds no footprint', async () => {
    const repo = gitRepository();
    const before = await snapshotWorkspace(repo);
    writeFileSync(join(repo, 'dirty.txt'), 'committed\n');
    const after = await snapshotWorkspace(repo, before);
    expect(workspaceChanges(before, after, [], repo)!.files).toEqual([
      { path: join(repo, 'dirty.txt'), op: 'modified', by: 'shell' },
    ]);
    const again = await snapshotWorkspace(repo);
    expect(workspaceChanges(again, await snapshotWorkspace(repo, again), [], repo)).toBeNull();
  });

  it('outside a repository: sizes and times of the files, node_modules, .git and the copied materials skipped', async () => {
    const folder = scratch();
    writeFileSync(join(folder, 'a.txt'), 'a\n');
    writeFileSync(join(folder, 'b.txt'), 'b\n');
    const before = await snapshotWorkspace(folder);
    expect(before.method).toBe('scan');
    writeFileSync(join(folder, 'a.txt'), 'a longer\n');
    rmSync(join(folder, 'b.txt'));
    writeFileSync(join(folder, 'c.txt'), 'c\n');
    for (const skipped of ['node_modules/pkg', '.git', '.weft/materials/n1']) {
      mkdirSync(join(folder, skipped), { recursive: true });
      writeFileSync(join(folder, skipped, 'x.txt'), 'x\n');
    }
    const footprint = workspaceChanges(before, await snapshotWorkspace(folder, before), [], folder);
    expect(footprint!.files).toEqual([
      { path: join(folder, 'a.txt'), op: 'modified', by: 'shell' },
      { path: join(folder, 'b.txt'), op: 'deleted', by: 'shell' },
      { path: join(folder, 'c.txt'), op: 'created', by: 'shell' },
    ]);
    expect(footprint!.args).toEqual({ compared: 'file sizes and times', bounded: false });
  });

  it('a folder with more files than the bound is compared up to it, and the footprint says so', async () => {
    const folder = scratch();
    for (let index = 0; index < 6; index += 1) writeFileSync(join(folder, `f${index}.txt`), 'x\n');
    const before = await snapshotWorkspace(folder, undefined, 4);
    expect(before).toMatchObject({ bounded: true });
    expect(before.files.size).toBe(4);
    // A file past the bound is still there: it is not reported deleted.
    writeFileSync(join(folder, 'f0.txt'), 'changed\n');
    const footprint = workspaceChanges(before, await snapshotWorkspace(folder, before, 4), [], folder);
    expect(footprint!.files).toEqual([{ path: join(folder, 'f0.txt'), op: 'modified', by: 'shell' }]);
    expect(footprint!.error).toMatch(/more than 4 files: only the first were compared/);
  });
});
