import { describe, expect, it } from 'vitest';
import { folderLabels, pathsInText, whyTargetFor } from './format.ts';

describe('pathsInText (what "why this file" offers)', () => {
  it('finds absolute paths and relative paths with a folder and an extension, once each', () => {
    const text =
      'I edited `src/hello.ts` and /tmp/repo/TODO.md, then read ./docs/notes.md (and src/hello.ts again). See https://example.com/a/b.html.';
    expect(pathsInText(text)).toEqual(['src/hello.ts', '/tmp/repo/TODO.md', './docs/notes.md']);
  });

  it('ignores bare words, versions and URLs', () => {
    expect(pathsInText('Version 1.2.3 of node is fine; see http://host/x/y.js and e.g. this.')).toEqual([]);
  });

  it('asks the index for absolute paths as given and for the file name of a relative path', () => {
    expect(whyTargetFor('/tmp/repo/TODO.md')).toBe('/tmp/repo/TODO.md');
    expect(whyTargetFor('./src/hello.ts')).toBe('hello.ts');
  });
});

describe('folderLabels (project folder list)', () => {
  it('uses the last two segments, and more where two folders would read the same', () => {
    const labels = folderLabels([
      '/tmp/out/claude/multi-turn/repo',
      '/tmp/out/codex/multi-turn/repo',
      '/home/me/site',
      null,
    ]);
    expect(labels.get('/tmp/out/claude/multi-turn/repo')).toBe('…/claude/multi-turn/repo');
    expect(labels.get('/tmp/out/codex/multi-turn/repo')).toBe('…/codex/multi-turn/repo');
    expect(labels.get('/home/me/site')).toBe('…/me/site');
    expect(labels.get(null)).toBe('Unknown folder');
  });
});
