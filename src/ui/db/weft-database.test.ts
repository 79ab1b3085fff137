import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { WeftDatabase } from './weft-database.ts';

describe('WeftDatabase schema versions', () => {
  it('opens a version 1 database (before revisions were kept) with its rows intact and an empty revisions table', async () => {
    const name = `weft-v1-${Math.random()}`;
    const old = new Dexie(name);
    old.version(1).stores({
      canvases: 'id, updatedAt',
      nodes: '[canvasId+id], canvasId',
      wires: '[canvasId+id], canvasId',
      attachments: 'hash, *canvasIds',
      events: '[canvasId+id], canvasId, [canvasId+seq]',
      dismissals: '[canvasId+id], canvasId',
      ledgers: '[canvasId+id], canvasId',
      settings: 'key',
    });
    const meta = { id: 'c1', name: 'Kept', workingDirectory: null, createdAt: 1 };
    await old.table('canvases').put({ id: 'c1', meta, updatedAt: 5, nodeCount: 0 });
    old.close();

    const current = new WeftDatabase(name);
    expect(await current.canvases.get('c1')).toMatchObject({ meta: { name: 'Kept' } });
    expect(await current.revisions.count()).toBe(0);
    await current.revisions.put({ canvasId: 'c1', revision: 'a'.repeat(64) });
    expect(await current.revisions.get('c1')).toEqual({ canvasId: 'c1', revision: 'a'.repeat(64) });
    expect(current.verno).toBe(2);
    current.close();
  });
});
