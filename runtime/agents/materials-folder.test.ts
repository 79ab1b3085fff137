import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeMaterialsFolder, writeMaterialsFolder } from './materials-folder.ts';

const folders: string[] = [];
const scratch = () => {
  const folder = mkdtempSync(join(tmpdir(), 'weft-materials-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('writeMaterialsFolder (C24)', () => {
  it("replaces a node's earlier set whole: a material no longer wired is gone", async () => {
    const cwd = scratch();
    await writeMaterialsFolder(cwd, 'n1', [
      { fileName: '1-a.md', text: 'A' },
      { fileName: '2-b.md', text: 'B' },
    ]);
    const folder = await writeMaterialsFolder(cwd, 'n1', [{ fileName: '1-b.md', text: 'B2' }]);
    expect(folder).toBe(join(cwd, '.weft/materials/n1'));
    expect(readdirSync(folder!).sort()).toEqual(['.gitignore', '1-b.md']);
    expect(readFileSync(join(folder!, '1-b.md'), 'utf8')).toBe('B2');
    // No staging folder is left behind.
    expect(readdirSync(join(cwd, '.weft/materials')).sort()).toEqual(['.gitignore', 'n1']);
  });

  it('refuses a .weft that leads outside the working directory, writing nothing there', async () => {
    const cwd = scratch();
    const elsewhere = scratch();
    symlinkSync(elsewhere, join(cwd, '.weft'));
    await expect(writeMaterialsFolder(cwd, 'n1', [{ fileName: '1-a.md', text: 'A' }])).rejects.toMatchObject({
      code: 'AGENT_MATERIALS_INVALID',
    });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('writes nothing when there are no materials', async () => {
    const cwd = scratch();
    mkdirSync(join(cwd, 'src'));
    expect(await writeMaterialsFolder(cwd, 'n1', [])).toBeNull();
    expect(existsSync(join(cwd, '.weft'))).toBe(false);
  });

  describe('in a Git repository', () => {
    const repository = () => {
      const cwd = scratch();
      const git = (...args: string[]) =>
        spawnSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd });
      git('init', '-q');
      writeFileSync(join(cwd, 'README.md'), '# project\n');
      git('add', '.');
      git('commit', '-qm', 'start');
      return { cwd, git };
    };
    const status = (cwd: string) =>
      spawnSync('git', ['status', '--porcelain=v1', '--untracked-files=all'], { cwd, encoding: 'utf8' }).stdout;

    it('the copies never show as changes, and the .weft Weft made is gone after the turn', async () => {
      const { cwd } = repository();
      const folder = await writeMaterialsFolder(cwd, 'n1', [{ fileName: '1-a.md', text: 'A' }]);
      expect(status(cwd)).toBe('');
      await removeMaterialsFolder(folder);
      expect(existsSync(join(cwd, '.weft'))).toBe(false);
      expect(status(cwd)).toBe('');
    });

    it("a .weft of the person's keeps every file as it was, and gets no .gitignore of Weft's", async () => {
      const { cwd, git } = repository();
      mkdirSync(join(cwd, '.weft'));
      writeFileSync(join(cwd, '.weft', 'settings.json'), '{"theirs":true}\n');
      git('add', '.');
      git('commit', '-qm', 'their .weft');
      writeFileSync(join(cwd, '.weft', 'scratch.txt'), 'untracked, theirs\n');
      const before = status(cwd);
      expect(before).toBe('?? .weft/scratch.txt\n');
      const folder = await writeMaterialsFolder(cwd, 'n1', [{ fileName: '1-a.md', text: 'A' }]);
      expect(status(cwd)).toBe(before);
      expect(existsSync(join(cwd, '.weft', '.gitignore'))).toBe(false);
      await removeMaterialsFolder(folder);
      expect(status(cwd)).toBe(before);
      expect(readdirSync(join(cwd, '.weft')).sort()).toEqual(['scratch.txt', 'settings.json']);
      expect(readFileSync(join(cwd, '.weft', 'settings.json'), 'utf8')).toBe('{"theirs":true}\n');
    });

    it("two nodes' turns at once: the first to end leaves the other's set, the last removes .weft", async () => {
      const { cwd } = repository();
      const first = await writeMaterialsFolder(cwd, 'n1', [{ fileName: '1-a.md', text: 'A' }]);
      const second = await writeMaterialsFolder(cwd, 'n2', [{ fileName: '1-b.md', text: 'B' }]);
      await removeMaterialsFolder(first);
      expect(readFileSync(join(second!, '1-b.md'), 'utf8')).toBe('B');
      expect(status(cwd)).toBe('');
      await removeMaterialsFolder(second);
      expect(existsSync(join(cwd, '.weft'))).toBe(false);
    });
  });
});
