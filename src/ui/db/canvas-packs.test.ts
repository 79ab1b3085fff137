import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CanvasDocument, CanvasNode, EventRecord } from '../../../protocol/index.ts';
import { EVENTS_PER_PACK, packOf } from './canvas-packs.ts';
import { loadCanvasDocument, writeCanvasChanges } from './canvas-persistence.ts';
import { recordsFromDocument } from './canvas-records.ts';
import { WeftDatabase } from './weft-database.ts';
import { eventRecord as event, noteRecord as note } from '../../../tests/support/record-factories.ts';

function canvas(nodes: CanvasNode[], events: EventRecord[]): CanvasDocument {
  return {
    format: 'weft.canvas',
    version: 4,
    canvas: { id: 'packed', name: 'Packed', workingDirectory: null, createdAt: 1 },
    nodes,
    wires: [],
    attachments: [],
    dismissals: [],
    ledgers: [],
    events,
  };
}

describe('canvas packs', () => {
  it('a log cut back across a pack boundary (an adopted record) reads back exactly, with no stale pack left', async () => {
    const database = new WeftDatabase(`packs-${Math.random()}`);
    const long = Array.from({ length: EVENTS_PER_PACK * 2 + 10 }, (_, index) => event(`e${index}`));
    const first = recordsFromDocument(canvas([note('n0', 1)], long));
    await writeCanvasChanges(database, null, first, 1);
    // The record kept the first pack and a third of the second, then another event of its own.
    const theirs = [...long.slice(0, EVENTS_PER_PACK + 3), event('theirs')];
    await writeCanvasChanges(database, first, { ...first, events: theirs }, 2);
    const read = await loadCanvasDocument(database, 'packed');
    expect(read?.events.map((record) => record.id)).toEqual(theirs.map((record) => record.id));
    expect(await database.packs.where({ canvasId: 'packed', kind: 'events' }).count()).toBe(2);
    database.close();
  });

  it('a log cut back to a plain prefix of itself reads back cut (no event of the longer log left in a pack)', async () => {
    const database = new WeftDatabase(`packs-${Math.random()}`);
    const long = Array.from({ length: EVENTS_PER_PACK * 2 + 10 }, (_, index) => event(`e${index}`));
    const first = recordsFromDocument(canvas([note('n0', 1)], long));
    await writeCanvasChanges(database, null, first, 1);
    for (const length of [EVENTS_PER_PACK + 3, 5]) {
      const cut = long.slice(0, length);
      const previous = (await loadCanvasDocument(database, 'packed'))!;
      await writeCanvasChanges(
        database,
        { ...first, events: long.slice(0, previous.events.length) },
        { ...first, events: cut },
        2,
      );
      const read = await loadCanvasDocument(database, 'packed');
      expect(read?.events.map((record) => record.id)).toEqual(cut.map((record) => record.id));
    }
    database.close();
  });

  it('deleting the last node of a pack removes the pack; the pack beside it is not rewritten', async () => {
    const database = new WeftDatabase(`packs-${Math.random()}`);
    // A node alone in its pack, among others.
    const nodes = Array.from({ length: 40 }, (_, index) => note(`n${index}`, index));
    const lone = nodes.find((node) => nodes.filter((other) => packOf(other.id) === packOf(node.id)).length === 1)!;
    const first = recordsFromDocument(canvas(nodes, []));
    await writeCanvasChanges(database, null, first, 1);
    const before = await database.packs.where({ canvasId: 'packed', kind: 'nodes' }).count();
    const written = await writeCanvasChanges(
      database,
      first,
      { ...first, nodes: nodes.filter((node) => node !== lone) },
      2,
    );
    expect(written).toBe(2);
    expect(await database.packs.where({ canvasId: 'packed', kind: 'nodes' }).count()).toBe(before - 1);
    const read = await loadCanvasDocument(database, 'packed');
    expect(read?.nodes.map((node) => node.id)).toEqual(nodes.filter((node) => node !== lone).map((node) => node.id));
    database.close();
  });
});
