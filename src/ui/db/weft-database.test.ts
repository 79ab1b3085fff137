import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import type { CanvasNode, Wire } from '../../../protocol/index.ts';
import { loadCanvasDocument, writeCanvasChanges } from './canvas-persistence.ts';
import { recordsFromDocument } from './canvas-records.ts';
import { WeftDatabase } from './weft-database.ts';
import { eventRecord as event, noteRecord as note } from '../../../tests/support/record-factories.ts';

/** The schema as version 1 of Weft wrote it (copied, not imported: the tests must keep what old code wrote). */
const VERSION_ONE_STORES = {
  canvases: 'id, updatedAt',
  nodes: '[canvasId+id], canvasId',
  wires: '[canvasId+id], canvasId',
  attachments: 'hash, *canvasIds',
  events: '[canvasId+id], canvasId, [canvasId+seq]',
  dismissals: '[canvasId+id], canvasId',
  ledgers: '[canvasId+id], canvasId',
  settings: 'key',
};

/** The schema as versions 1–2 of Weft wrote it: one row per node, wire and event. */
function versionTwoDatabase(name: string): Dexie {
  const old = new Dexie(name);
  old.version(1).stores(VERSION_ONE_STORES);
  old.version(2).stores({ revisions: 'canvasId' });
  return old;
}

const wire = (id: string, from: string, to: string): Wire => ({ id, from, to, createdAt: 1, kind: 'solid' });

describe('WeftDatabase schema versions', () => {
  it('opens a version 1 database (before revisions were kept) with its rows intact and an empty revisions table', async () => {
    const name = `weft-v1-${Math.random()}`;
    const old = new Dexie(name);
    old.version(1).stores(VERSION_ONE_STORES);
    const meta = { id: 'c1', name: 'Kept', workingDirectory: null, createdAt: 1 };
    await old.table('canvases').put({ id: 'c1', meta, updatedAt: 5, nodeCount: 0 });
    old.close();

    const current = new WeftDatabase(name);
    expect(await current.canvases.get('c1')).toMatchObject({ meta: { name: 'Kept' } });
    expect(await current.revisions.count()).toBe(0);
    await current.revisions.put({ canvasId: 'c1', revision: 'a'.repeat(64) });
    expect(await current.revisions.get('c1')).toEqual({ canvasId: 'c1', revision: 'a'.repeat(64) });
    expect(current.verno).toBe(4);
    // Version 4's queue of unacknowledged steps starts empty.
    expect(await current.pending.count()).toBe(0);
    current.close();
  });

  it('moves the node, wire and event rows of a version 2 database into packs: every canvas reads back the same', async () => {
    const name = `weft-v2-${Math.random()}`;
    const old = versionTwoDatabase(name);
    const nodes = Array.from({ length: 700 }, (_, index) => note(`n${index}`, index));
    // More events than one pack holds, written out of log order: the log is read back in `seq` order.
    const events = Array.from({ length: 1200 }, (_, index) => event(`e${index}`, index));
    const wires = [wire('w1', 'n0', 'n1'), wire('w2', 'n1', 'n2')];
    for (const canvasId of ['c1', 'c2']) {
      const meta = { id: canvasId, name: `Canvas ${canvasId}`, workingDirectory: null, createdAt: 1 };
      await old.table('canvases').put({ id: canvasId, meta, updatedAt: 5, nodeCount: nodes.length });
      const owned = canvasId === 'c1' ? nodes : nodes.slice(0, 3);
      await old.table('nodes').bulkPut(owned.map((record) => ({ canvasId, id: record.id, record })));
      await old.table('wires').bulkPut(wires.map((record) => ({ canvasId, id: record.id, record })));
      const log = canvasId === 'c1' ? events : events.slice(0, 2);
      await old
        .table('events')
        .bulkPut([...log.entries()].reverse().map(([seq, record]) => ({ canvasId, id: record.id, seq, record })));
    }
    await old.table('revisions').put({ canvasId: 'c1', revision: 'c'.repeat(64) });
    old.close();

    const current = new WeftDatabase(name);
    const first = await loadCanvasDocument(current, 'c1');
    expect(first?.canvas.name).toBe('Canvas c1');
    expect(first?.nodes).toEqual(nodes);
    expect(first?.wires).toEqual(wires);
    expect(first?.events.map((record) => record.id)).toEqual(events.map((record) => record.id));
    expect(first?.events).toEqual(events);
    const second = await loadCanvasDocument(current, 'c2');
    expect(second?.nodes).toEqual(nodes.slice(0, 3));
    expect(second?.events).toEqual(events.slice(0, 2));
    expect(await current.revisions.get('c1')).toEqual({ canvasId: 'c1', revision: 'c'.repeat(64) });
    // The old tables are gone; a canvas is a few rows now.
    expect(current.tables.map((table) => table.name)).not.toContain('nodes');
    expect(await current.packs.where('canvasId').equals('c1').count()).toBeLessThan(140);

    // And it is written and read as any canvas from then on: an edit and an appended event survive a reopen.
    const records = recordsFromDocument(first!);
    const edited = { ...nodes[350]!, text: 'Edited after the upgrade' } as CanvasNode;
    const next = {
      ...records,
      nodes: first!.nodes.map((node) => (node.id === edited.id ? edited : node)),
      events: [...first!.events, event('e-new', 2000)],
    };
    expect(await writeCanvasChanges(current, records, next, 10)).toBe(3);
    current.close();
    const reopened = new WeftDatabase(name);
    const read = await loadCanvasDocument(reopened, 'c1');
    expect(read?.nodes.find((node) => node.id === edited.id)).toEqual(edited);
    expect(read?.events.at(-1)?.id).toBe('e-new');
    expect(read?.events).toHaveLength(1201);
    reopened.close();
  });
});
