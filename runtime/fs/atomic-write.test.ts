import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failingAt, type Step } from '../../tests/support/failing-file-system.ts';
import { writeFileAtomic } from './atomic-write.ts';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-atomic-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces a file with 0600 permissions and leaves no temp files', async () => {
    const target = join(directory, 'record.json');
    await writeFile(target, 'old');
    await writeFileAtomic(target, 'new');
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readdir(directory)).toEqual(['record.json']);
  });

  it.each<Step>(['after temp write', 'after fsync', 'before rename'])(
    'a failure %s leaves the previous file intact',
    async (step) => {
      const target = join(directory, 'record.json');
      await writeFile(target, 'previous contents');
      await expect(
        writeFileAtomic(target, 'half-written new contents', { fileSystem: failingAt(step) }),
      ).rejects.toThrow(/injected/);
      expect(await readFile(target, 'utf8')).toBe('previous contents');
      expect(await readdir(directory)).toEqual(['record.json']);
    },
  );
});
