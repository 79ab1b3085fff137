import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryJournalPage, PutAsideListResponse } from '../protocol/index.ts';
import { TestCanvas } from '../src/core/index.ts';
import { CanvasStore } from '../runtime/fs/index.ts';
import { journaledPutAsideStore } from '../runtime/memory/index.ts';
import { startTestServer } from '../tests/support/test-server.ts';
import { runWeftInProcess } from './run-weft.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'weft-cli-put-asides-'));
  mkdirSync(join(folder, 'sessions'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const home = () => join(folder, 'home');
const weft = (...argv: string[]) =>
  runWeftInProcess(argv, {
    cwd: folder,
    env: { WEFT_HOME: home(), WEFT_SESSION_ROOTS: join(folder, 'sessions') },
  });
const WORDS = 'Should the sync engine keep a write-ahead log?';

/** A canvas turn archived through the real canvas store, which records its tombstone in the one put-aside log. */
async function archivedTurn(store: CanvasStore): Promise<string> {
  const canvas = new TestCanvas();
  const node = canvas.addQuestion(WORDS);
  canvas.answer(node, 'Yes.');
  const { revision } = await store.write('canvas-test', canvas.document(), { baseRevision: null });
  canvas.archive(node);
  await store.write('canvas-test', canvas.document(), { baseRevision: revision });
  return node;
}

describe('weft memory put-asides | restore (issue 29.2)', () => {
  it('lists what is put aside with its words while a record holds them; restore lifts it and is journaled', async () => {
    mkdirSync(join(home(), 'canvases'), { recursive: true });
    const canvases = new CanvasStore({
      directory: join(home(), 'canvases'),
      putAsides: journaledPutAsideStore(home()),
    });
    const node = await archivedTurn(canvases);

    const listed = await weft('memory', 'put-asides');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('canvas-turn  archived');
    expect(listed.stdout).toContain(`turn: canvas-test/${node}`);
    expect(listed.stdout).toContain(WORDS);
    const page = JSON.parse((await weft('memory', 'put-asides', '--json')).stdout) as PutAsideListResponse;
    expect(page.total).toBe(1);

    const restored = await weft('memory', 'restore', page.items[0]!.id);
    expect(restored.code, restored.stderr).toBe(0);
    expect((await weft('memory', 'put-asides')).stdout).toContain('Nothing is put aside.');
    const journal = JSON.parse((await weft('memory', 'journal', '--json')).stdout) as MemoryJournalPage;
    expect(journal.entries.map((entry) => entry.event.op).slice(0, 2)).toEqual(['memory-restored', 'memory-put-aside']);
    expect(JSON.stringify(journal)).not.toContain('write-ahead');
    expect((await weft('memory', 'journal', '--verify')).code).toBe(0);

    const again = await weft('memory', 'restore', page.items[0]!.id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('put-aside-unknown');
  });

  it('goes through the running server for this home: its archive and the restore are both journaled there', async () => {
    const server = await startTestServer({ home: home() });
    try {
      await archivedTurn(server.context.canvases);
      const page = JSON.parse((await weft('memory', 'put-asides', '--json')).stdout) as PutAsideListResponse;
      expect(page.items.map((item) => item.excerpt)).toEqual([WORDS]);
      const published: string[] = [];
      const stop = server.context.hub.subscribe((event) => published.push(event.type));
      expect((await weft('memory', 'restore', page.items[0]!.id)).code).toBe(0);
      stop();
      // Only the server publishes: the restore went through its store, not around it.
      expect(published).toContain('memory-changed');
      const journal = (await (await server.api('/api/memory/journal')).json()) as MemoryJournalPage;
      expect(journal.entries.map((entry) => entry.event.op).slice(0, 2)).toEqual([
        'memory-restored',
        'memory-put-aside',
      ]);
      expect(((await (await server.api('/api/memory/put-asides')).json()) as PutAsideListResponse).total).toBe(0);
    } finally {
      await server.close();
    }
  });
});
