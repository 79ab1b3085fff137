import { FIXTURES } from '../../tests/support/fixtures-directory.ts';
import { createHash } from 'node:crypto';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fence } from './fence.ts';
import { listSessionFiles } from './list-session-files.ts';
import { discoverMemoryFiles } from './memory-files.ts';
import { readSessionFile } from './read-session-file.ts';

let base: string;

/** path → sha256 of content (or link target) + mode + mtime, for every entry under `root`. */
function snapshot(root: string): Map<string, string> {
  const result = new Map<string, string>();
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory).sort()) {
      const full = path.join(directory, name);
      const info = lstatSync(full);
      const stamp = `${info.mode}:${info.mtimeMs}:${info.size}`;
      if (info.isSymbolicLink()) result.set(full, `link:${readlinkSync(full)}:${stamp}`);
      else if (info.isDirectory()) {
        result.set(full, `dir:${stamp}`);
        walk(full);
      } else result.set(full, `${createHash('sha256').update(readFileSync(full)).digest('hex')}:${stamp}`);
    }
  };
  walk(root);
  return result;
}

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'atlas-readonly-'));
  for (const name of ['real-sessions', 'sessions', 'memory'])
    cpSync(path.join(FIXTURES, name), path.join(base, name), { recursive: true });
  execFileSync('chmod', ['-R', 'a-w', base]);
});

afterAll(() => {
  execFileSync('chmod', ['-R', 'u+w', base]);
  rmSync(base, { recursive: true, force: true });
});

describe('reading never changes anything under the roots', () => {
  it('full read, resume and memory discovery over a read-only copy leave every file identical', async () => {
    const before = snapshot(base);
    expect(before.size).toBeGreaterThan(40);
    const fence = new Fence([path.join(base, 'real-sessions'), path.join(base, 'sessions')]);
    const files = await listSessionFiles(fence);
    expect(files.length).toBeGreaterThanOrEqual(30);
    let sessions = 0;
    for (const file of files) {
      const first = await readSessionFile(file.path, { fence });
      const again = await readSessionFile(file.path, { fence, fromOffset: first.bytesConsumed, state: first.state });
      expect(again.sessions).toEqual(first.sessions);
      sessions += first.sessions.length;
    }
    expect(sessions).toBeGreaterThanOrEqual(files.length - 1);
    const memory = await discoverMemoryFiles([path.join(base, 'memory')], []);
    expect(memory.length).toBe(11);
    expect(snapshot(base)).toEqual(before);
  });
});
