import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeMaterialsFolder } from './materials-folder.ts';

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
    expect(readdirSync(folder!)).toEqual(['1-b.md']);
    expect(readFileSync(join(folder!, '1-b.md'), 'utf8')).toBe('B2');
    // No staging folder is left behind.
    expect(readdirSync(join(cwd, '.weft/materials'))).toEqual(['n1']);
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
});
