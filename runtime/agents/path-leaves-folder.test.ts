import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pathLeavingFolder } from './path-leaves-folder.ts';

describe('pathLeavingFolder', () => {
  it('relative paths inside, the folder itself and nested dots stay inside', () => {
    expect(pathLeavingFolder('/work/repo', ['src/a.ts', '.', './x/../y', '/work/repo/z', '..notes'])).toBeNull();
  });

  it('names the first path that resolves outside: parent steps, absolute paths, a sibling with a shared prefix', () => {
    expect(pathLeavingFolder('/work/repo', ['ok.txt', '../secret'])).toBe('/work/secret');
    expect(pathLeavingFolder('/work/repo', ['/etc/passwd'])).toBe('/etc/passwd');
    expect(pathLeavingFolder('/work/repo', ['/work/repo-other/file'])).toBe('/work/repo-other/file');
  });

  describe('through links inside the folder (a real folder in tmp)', () => {
    let scratch = '';
    afterEach(() => rmSync(scratch, { recursive: true, force: true }));

    function layout() {
      scratch = realpathSync(mkdtempSync(join(tmpdir(), 'weft-leaves-')));
      const folder = join(scratch, 'repo');
      const elsewhere = join(scratch, 'elsewhere');
      mkdirSync(join(folder, 'src'), { recursive: true });
      mkdirSync(elsewhere);
      symlinkSync(elsewhere, join(folder, 'out'));
      symlinkSync(join(elsewhere, 'new.txt'), join(folder, 'dangling.txt'));
      symlinkSync(join(folder, 'src'), join(folder, 'code'));
      return { folder, elsewhere };
    }

    it('a link to outside leaves: an existing target, a new file under it, a dangling link; a link loop asks too', () => {
      const { folder, elsewhere } = layout();
      expect(pathLeavingFolder(folder, ['out'])).toBe(elsewhere);
      expect(pathLeavingFolder(folder, ['out/deep/new.txt'])).toBe(join(elsewhere, 'deep/new.txt'));
      expect(pathLeavingFolder(folder, ['dangling.txt'])).toBe(join(elsewhere, 'new.txt'));
      symlinkSync(join(folder, 'loop'), join(folder, 'loop'));
      expect(pathLeavingFolder(folder, ['loop'])).toBe(join(folder, 'loop'));
    });

    it('a link that stays inside is inside, and so is a folder reached through a link to it', () => {
      const { folder } = layout();
      expect(pathLeavingFolder(folder, ['code/a.ts', 'src/b.ts'])).toBeNull();
      symlinkSync(folder, join(scratch, 'repo-link'));
      expect(pathLeavingFolder(join(scratch, 'repo-link'), ['code/a.ts'])).toBeNull();
    });
  });
});
