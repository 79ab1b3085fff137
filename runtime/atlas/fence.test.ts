import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fence, FenceError, type FenceErrorCode } from './fence.ts';
import { listSessionFiles } from './list-session-files.ts';
import { readSessionFile } from './read-session-file.ts';
import { defaultSessionRoots, sessionRootsFromEnv } from './session-roots.ts';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'atlas-fence-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'project'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  const line = `${JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' })}\n`;
  writeFileSync(path.join(root, 'project', 'inside.jsonl'), line);
  writeFileSync(path.join(outside, 'secret.jsonl'), line);
  symlinkSync(path.join(outside, 'secret.jsonl'), path.join(root, 'project', 'escape.jsonl'));
  symlinkSync(outside, path.join(root, 'escape-dir'));
  symlinkSync(path.join(root, 'project', 'inside.jsonl'), path.join(root, 'project', 'alias.jsonl'));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

async function refusal(fence: Fence, requested: string): Promise<FenceErrorCode> {
  try {
    await fence.resolve(requested);
  } catch (error) {
    if (error instanceof FenceError) return error.code;
    throw error;
  }
  throw new Error(`resolved ${requested}`);
}

describe('Fence', () => {
  it('resolves a file inside a root, absolute or relative to the first root', async () => {
    const fence = new Fence([root]);
    expect(await fence.resolve(path.join(root, 'project', 'inside.jsonl'))).toMatch(/inside\.jsonl$/);
    expect(await fence.resolve('project/inside.jsonl')).toMatch(/inside\.jsonl$/);
    // A symlink whose target stays inside is fine.
    expect(await fence.resolve(path.join(root, 'project', 'alias.jsonl'))).toMatch(/inside\.jsonl$/);
  });

  it.each([
    ['a .. segment', (): string => path.join(root, 'project') + '/../../outside/secret.jsonl', 'FENCE_DOT_DOT'],
    ['a relative .. segment', (): string => '../outside/secret.jsonl', 'FENCE_DOT_DOT'],
    ['an absolute path outside every root', (): string => path.join(outside, 'secret.jsonl'), 'FENCE_OUTSIDE_ROOTS'],
    ['/etc/passwd', (): string => '/etc/passwd', 'FENCE_OUTSIDE_ROOTS'],
    ['a file symlink pointing out', (): string => path.join(root, 'project', 'escape.jsonl'), 'FENCE_SYMLINK_ESCAPE'],
    [
      'a directory symlink pointing out',
      (): string => path.join(root, 'escape-dir', 'secret.jsonl'),
      'FENCE_SYMLINK_ESCAPE',
    ],
    ['an encoded slash', (): string => `${root}/project%2Finside.jsonl`, 'FENCE_ENCODED_SEPARATOR'],
    ['encoded dots', (): string => `${root}/%2e%2e/outside/secret.jsonl`, 'FENCE_ENCODED_SEPARATOR'],
    ['upper-case encoded dots', (): string => `${root}/%2E%2E/outside/secret.jsonl`, 'FENCE_ENCODED_SEPARATOR'],
    ['an encoded backslash', (): string => `${root}/project%5Cinside.jsonl`, 'FENCE_ENCODED_SEPARATOR'],
    ['a backslash', (): string => `${root}\\..\\outside\\secret.jsonl`, 'FENCE_BACKSLASH'],
    ['a NUL byte', (): string => `${root}/project/inside.jsonl\0.txt`, 'FENCE_NUL_BYTE'],
    ['an empty path', (): string => '', 'FENCE_EMPTY_PATH'],
    ['a missing file', (): string => path.join(root, 'project', 'missing.jsonl'), 'FENCE_NOT_FOUND'],
  ] as const)('refuses %s with a coded error', async (_name, requested, code) => {
    expect(await refusal(new Fence([root]), requested())).toBe(code);
  });

  it('readSessionFile refuses outside paths before opening anything', async () => {
    const fence = new Fence([root]);
    await expect(readSessionFile(path.join(outside, 'secret.jsonl'), { fence })).rejects.toMatchObject({
      code: 'FENCE_OUTSIDE_ROOTS',
    });
    await expect(readSessionFile(path.join(root, 'project', 'escape.jsonl'), { fence })).rejects.toMatchObject({
      code: 'FENCE_SYMLINK_ESCAPE',
    });
  });

  it('opens only regular files: a FIFO planted under a root is refused at once instead of blocking the read', async (context) => {
    if (process.platform === 'win32') return context.skip('Windows has no mkfifo');
    const fence = new Fence([root]);
    const fifo = path.join(root, 'project', 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    try {
      await expect(readSessionFile(fifo, { fence })).rejects.toMatchObject({ code: 'FENCE_NOT_FILE' });
      await expect(readSessionFile(path.join(root, 'project'), { fence })).rejects.toMatchObject({
        code: 'FENCE_NOT_FILE',
      });
      const { handle } = await fence.open(path.join(root, 'project', 'inside.jsonl'));
      await handle.close();
    } finally {
      rmSync(fifo);
    }
  });

  it('refuses a file whose folder is swapped for a symlink out between resolving and opening', async (context) => {
    if (!existsSync('/proc/self/fd'))
      return context.skip('no /proc/self/fd: the fence checks an opened file through it (Linux)');
    const swapped = path.join(root, 'swapped');
    mkdirSync(swapped);
    writeFileSync(path.join(swapped, 'secret.jsonl'), '{}\n');
    class RacedFence extends Fence {
      override async resolve(requested: string): Promise<string> {
        const real = await super.resolve(requested);
        // The race, made deterministic: after the check, the folder becomes a link to `outside`.
        renameSync(swapped, `${swapped}.moved`);
        symlinkSync(outside, swapped);
        return real;
      }
    }
    try {
      await expect(new RacedFence([root]).open(path.join(swapped, 'secret.jsonl'))).rejects.toMatchObject({
        code: 'FENCE_SYMLINK_ESCAPE',
      });
    } finally {
      rmSync(swapped, { force: true });
      rmSync(`${swapped}.moved`, { recursive: true, force: true });
    }
  });

  it('listing never follows symlinks out of the roots and lists each real file once', async () => {
    const files = await listSessionFiles(new Fence([root]));
    expect(files.map((file) => path.basename(file.path))).toEqual(['inside.jsonl']);
    expect(files[0]!.size).toBeGreaterThan(0);
  });

  it('a root that appears after the fence was made is honoured', async () => {
    const later = path.join(base, 'later');
    const fence = new Fence([root, later]);
    expect(await refusal(fence, path.join(later, 'a.jsonl'))).toBe('FENCE_NOT_FOUND');
    mkdirSync(later);
    writeFileSync(path.join(later, 'a.jsonl'), '{}\n');
    expect(await fence.resolve(path.join(later, 'a.jsonl'))).toMatch(/later[\\/]a\.jsonl$/);
  });

  it('needs at least one root', () => {
    expect(() => new Fence([])).toThrow(FenceError);
  });
});

describe('session roots', () => {
  it('defaults to the three runners folders under home', () => {
    expect(defaultSessionRoots('/home/u')).toEqual([
      '/home/u/.claude/projects',
      '/home/u/.codex/sessions',
      '/home/u/.pi/agent/sessions',
    ]);
    // Plus the sessions of the agent lane's Codex turns, in the CODEX_HOME Weft owns under its home.
    const withAgentLane = [...defaultSessionRoots('/home/u'), '/home/u/.weft/agents/codex-home/sessions'];
    expect(sessionRootsFromEnv({}, '/home/u')).toEqual(withAgentLane);
    expect(sessionRootsFromEnv({ WEFT_SESSION_ROOTS: '  ' }, '/home/u')).toEqual(withAgentLane);
    expect(sessionRootsFromEnv({ WEFT_HOME: '/data/weft' }, '/home/u').at(-1)).toBe(
      '/data/weft/agents/codex-home/sessions',
    );
  });

  it('WEFT_SESSION_ROOTS replaces them, split on path.delimiter', () => {
    const value = ['/data/a', '~/b', 'c', '/data/a'].join(path.delimiter);
    expect(sessionRootsFromEnv({ WEFT_SESSION_ROOTS: value }, '/home/u')).toEqual([
      '/data/a',
      '/home/u/b',
      '/home/u/c',
    ]);
  });
});
