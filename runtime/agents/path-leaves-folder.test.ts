import { describe, expect, it } from 'vitest';
import { pathLeavingFolder } from './path-leaves-folder.ts';

describe('pathLeavingFolder', () => {
  it('relative paths inside, the folder itself and nested dots stay inside', () => {
    expect(pathLeavingFolder('/work/repo', ['src/a.ts', '.', './x/../y', '/work/repo/z'])).toBeNull();
  });

  it('names the first path that resolves outside: parent steps, absolute paths, a sibling with a shared prefix', () => {
    expect(pathLeavingFolder('/work/repo', ['ok.txt', '../secret'])).toBe('/work/secret');
    expect(pathLeavingFolder('/work/repo', ['/etc/passwd'])).toBe('/etc/passwd');
    expect(pathLeavingFolder('/work/repo', ['/work/repo-other/file'])).toBe('/work/repo-other/file');
  });
});
