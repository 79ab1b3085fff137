import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleCanvas } from '../../tests/support/sample-canvas.ts';
import { backupFileName, CanvasBackup } from './canvas-backup.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'weft-backup-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function backupTo(directory: string): CanvasBackup {
  return new CanvasBackup({
    folder: async () => directory,
    delayMs: 10_000,
    onError: (error) => {
      throw error;
    },
  });
}

describe('backupFileName', () => {
  it('keeps a name inside the folder whatever it contains', () => {
    for (const name of ['../../etc/passwd', '..', '/abs/path', 'a\\\\b', 'C:evil', '.hidden', 'x\u0000y', '  ']) {
      const file = backupFileName(name, 'canvas-1');
      expect(file, name).not.toMatch(/[\\/\u0000]/);
      expect(file.startsWith('.'), name).toBe(false);
      expect(file.endsWith('.weft.json')).toBe(true);
    }
    expect(backupFileName('..', 'canvas-1')).toBe('canvas-1.weft.json');
  });

  it('stays under the 255-byte file name limit for long non-Latin names, without splitting a character', () => {
    const file = backupFileName('研究計画'.repeat(100), 'canvas-1', true);
    expect(Buffer.byteLength(file)).toBeLessThanOrEqual(255);
    expect(file).not.toContain('\ufffd');
    expect(file.endsWith(' (canvas-1).weft.json')).toBe(true);
  });

  it('never names a Windows device', () => {
    expect(backupFileName('CON', 'canvas-1')).toBe('CON_.weft.json');
    expect(backupFileName('lpt1', 'canvas-1')).toBe('lpt1_.weft.json');
  });
});

describe('CanvasBackup', () => {
  it('writes namesakes to two files: neither canvas replaces the other', async () => {
    const backup = backupTo(folder);
    backup.schedule(sampleCanvas('first', 'Plan', 'first text'));
    await backup.flush();
    backup.schedule(sampleCanvas('second', 'Plan', 'second text'));
    backup.schedule(sampleCanvas('first', 'Plan', 'first, edited'));
    await backup.flush();
    expect((await readdir(folder)).sort()).toEqual(['Plan (second).weft.json', 'Plan.weft.json']);
    expect(JSON.parse(await readFile(join(folder, 'Plan.weft.json'), 'utf8')).nodes[0].text).toBe('first, edited');
    expect(JSON.parse(await readFile(join(folder, 'Plan (second).weft.json'), 'utf8')).nodes[0].text).toBe(
      'second text',
    );
  });

  it("discard drops a canvas's pending backup, keeps the others, and returns only after a write under way", async () => {
    let releaseWrite!: () => void;
    const writeHeld = new Promise<void>((resolve) => {
      releaseWrite = resolve;
    });
    const backup = new CanvasBackup({
      folder: async () => {
        await writeHeld;
        return folder;
      },
      delayMs: 10_000,
      onError: (error) => {
        throw error;
      },
    });
    backup.schedule(sampleCanvas('busy', 'Busy', 'text'));
    const flushing = backup.flush();
    backup.schedule(sampleCanvas('dropped', 'Dropped', 'text'));
    backup.schedule(sampleCanvas('kept', 'Kept', 'text'));
    let discarded = false;
    const discarding = backup.discard('busy').then(() => {
      discarded = true;
    });
    await backup.discard('dropped');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(discarded).toBe(false);
    releaseWrite();
    await discarding;
    // The write under way finished before discard returned; nothing of it can land later.
    expect(await readdir(folder)).toEqual(['Busy.weft.json']);
    await flushing;
    await backup.flush();
    expect((await readdir(folder)).sort()).toEqual(['Busy.weft.json', 'Kept.weft.json']);
  });

  it('leaves a file it did not write untouched', async () => {
    await writeFile(join(folder, 'Notes.weft.json'), 'my own notes');
    const backup = backupTo(folder);
    backup.schedule(sampleCanvas('notes', 'Notes'));
    await backup.flush();
    expect(await readFile(join(folder, 'Notes.weft.json'), 'utf8')).toBe('my own notes');
    expect(JSON.parse(await readFile(join(folder, 'Notes (notes).weft.json'), 'utf8')).canvas.id).toBe('notes');
  });

  it('backs up namesakes with long CJK titles and the longest ids', async () => {
    const backup = backupTo(folder);
    backup.schedule(sampleCanvas('long', '研究計画'.repeat(100)));
    await backup.flush();
    backup.schedule(sampleCanvas('x'.repeat(100), '研究計画'.repeat(100)));
    await backup.flush();
    expect(await readdir(folder)).toHaveLength(2);
  });
});
