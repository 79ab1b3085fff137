import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleCanvas } from '../../tests/support/sample-canvas.ts';
import { nodeAtomicFileSystem, writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';
import { CanvasRecords } from './canvas-records.ts';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-atomic-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

type Step = 'after temp write' | 'after fsync' | 'before rename';

/** The real file system, failing at one named step (the temp file is fully written at that point). */
function failingAt(step: Step): AtomicFileSystem {
  return {
    ...nodeAtomicFileSystem,
    async writeTemp(path, data, mode) {
      await nodeAtomicFileSystem.writeTemp(path, data, mode);
      if (step === 'after temp write') throw new Error('disk full (injected)');
    },
    async fsyncFile(path) {
      await nodeAtomicFileSystem.fsyncFile(path);
      if (step === 'after fsync') throw new Error('fsync failed (injected)');
    },
    async rename(from, to) {
      if (step === 'before rename') throw new Error('power cut (injected)');
      await nodeAtomicFileSystem.rename(from, to);
    },
  };
}

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

describe('CanvasRecords', () => {
  it.each<Step>(['after temp write', 'after fsync', 'before rename'])(
    'an interrupted write (%s) keeps the previous record readable',
    async (step) => {
      const good = new CanvasRecords({ directory });
      await good.write('alpha', sampleCanvas('alpha', 'Alpha', 'first text'));
      const faulty = new CanvasRecords({ directory, fileSystem: failingAt(step) });
      await expect(faulty.write('alpha', sampleCanvas('alpha', 'Alpha', 'second text'))).rejects.toThrow(/injected/);
      const { document } = await good.read('alpha');
      expect(document.nodes[0]).toMatchObject({ kind: 'note', text: 'first text' });
      expect(await readdir(directory)).toEqual(['alpha.weft.json']);
    },
  );

  it('serialises concurrent writes to one canvas: steps never interleave and the last write wins', async () => {
    const log: string[] = [];
    const delay = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    const slow: AtomicFileSystem = {
      ...nodeAtomicFileSystem,
      async writeTemp(path, data, mode) {
        const document = JSON.parse(String(data));
        if (document.canvas.id === 'alpha') log.push(`start ${document.nodes[0].text}`);
        await delay();
        await nodeAtomicFileSystem.writeTemp(path, data, mode);
      },
      async fsyncFile(path) {
        await delay();
        await nodeAtomicFileSystem.fsyncFile(path);
      },
      async rename(from, to) {
        await delay();
        await nodeAtomicFileSystem.rename(from, to);
        if (to.endsWith('alpha.weft.json')) log.push('end');
      },
    };
    const records = new CanvasRecords({ directory, fileSystem: slow });
    const writes = Array.from({ length: 12 }, (_, index) =>
      records.write('alpha', sampleCanvas('alpha', 'Alpha', `text ${index}`)),
    );
    // Meanwhile another canvas writes in parallel, unaffected.
    writes.push(records.write('beta', sampleCanvas('beta', 'Beta', 'beta text')));
    await Promise.all(writes);
    expect(log).toHaveLength(24);
    for (let index = 0; index < log.length; index += 2) {
      expect(log[index]).toMatch(/^start /);
      expect(log[index + 1]).toBe('end');
    }
    const alphaStarts = log.filter((line) => line.startsWith('start text'));
    expect(alphaStarts).toEqual(Array.from({ length: 12 }, (_, index) => `start text ${index}`));
    expect((await records.read('alpha')).document.nodes[0]).toMatchObject({ text: 'text 11' });
    expect((await records.list()).canvases.map((canvas) => canvas.id).sort()).toEqual(['alpha', 'beta']);
  });

  it('refuses a document for another id, a foreign file, and a bad id, touching nothing', async () => {
    const records = new CanvasRecords({ directory });
    await records.write('alpha', sampleCanvas('alpha'));
    const before = await readFile(join(directory, 'alpha.weft.json'), 'utf8');
    await expect(records.write('alpha', sampleCanvas('other'))).rejects.toMatchObject({ code: 'invalid-canvas' });
    await expect(records.write('alpha', { hello: 'world' })).rejects.toMatchObject({
      code: 'invalid-canvas',
      message: expect.stringContaining('format'),
    });
    await expect(records.write('../escape', sampleCanvas('alpha'))).rejects.toMatchObject({ code: 'invalid-id' });
    expect(await readFile(join(directory, 'alpha.weft.json'), 'utf8')).toBe(before);
  });

  it('reports a corrupt stored record without changing it', async () => {
    await writeFile(join(directory, 'broken.weft.json'), '{"format":"weft.canvas","version":1,"nodes":[');
    const records = new CanvasRecords({ directory });
    await expect(records.read('broken')).rejects.toMatchObject({ code: 'corrupt-record' });
    const listing = await records.list();
    expect(listing.unreadable).toEqual(['broken']);
    expect(await readFile(join(directory, 'broken.weft.json'), 'utf8')).toBe(
      '{"format":"weft.canvas","version":1,"nodes":[',
    );
  });
});
