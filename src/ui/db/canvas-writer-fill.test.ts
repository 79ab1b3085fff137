import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CanvasDocument, QuestionNode } from '../../../protocol/canvas-document.ts';
import { exactRevision, loadCanvasDocument, persistenceCounters, storedRevision } from './canvas-persistence.ts';
import { recordsFromDocument, type CanvasRecords } from './canvas-records.ts';
import { CanvasWriter } from './canvas-writer.ts';
import { fillCanvasRows } from './fill-canvas-rows.ts';
import { packOf } from './canvas-packs.ts';
import { WeftDatabase } from './weft-database.ts';

const question = (id: string, text: string): QuestionNode => ({
  id,
  kind: 'question',
  createdAt: 1,
  position: { x: 0, y: 0 },
  size: null,
  archived: false,
  archivedAt: null,
  excludedParts: [],
  question: text,
  versions: [],
  currentVersionId: null,
  autoRerun: { enabled: false, rounds: 1 },
  model: null,
  attachments: [],
});

/** A canvas large enough to be cached in several slices. */
function bigCanvas(): CanvasDocument {
  return {
    format: 'weft.canvas',
    version: 4,
    canvas: { id: 'fill-test', name: 'Fill', workingDirectory: null, createdAt: 1 },
    nodes: Array.from({ length: 4500 }, (_, index) => question(`n${index}`, `Question ${index}?`)),
    wires: [],
    attachments: [],
    dismissals: [],
    ledgers: [],
    events: [],
  };
}

/** A pause that holds the fill until the test opens it (then lets every later one through), counting them. */
function gate() {
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  const state = { pauses: 0, pause: () => ((state.pauses += 1), opened), open: () => release() };
  return state;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

function writerFor(database: WeftDatabase, pause: () => Promise<void>, errors: unknown[]) {
  return new CanvasWriter({
    database,
    now: () => 1000,
    onError: (error) => errors.push(error),
    putDurable: async () => undefined,
    localDelayMs: 1,
    durableDelayMs: 60_000,
    pause,
  });
}

describe('CanvasWriter.fill (a canvas painted from the server before it is cached)', () => {
  it('caches in slices after the paint, and an edit made meanwhile is kept, written after the fill as a difference', async () => {
    const database = new WeftDatabase(`fill-${Math.random()}`);
    const errors: unknown[] = [];
    const slices = gate();
    const writer = writerFor(database, () => slices.pause(), errors);
    const document = bigCanvas();
    const records = recordsFromDocument(document);
    const filled = writer.fill(records, { ready: Promise.resolve(), revision: 'a'.repeat(64) });
    await settle();
    // Paused before its first slice: nothing of the canvas is readable yet, and the writer counts as busy.
    expect(await loadCanvasDocument(database, 'fill-test')).toBeNull();
    expect(writer.isBusy()).toBe(true);

    // The person edits a node while the cache is being filled.
    const edited = { ...document.nodes[4000]!, question: 'Edited while caching?' } as QuestionNode;
    const next: CanvasRecords = {
      ...records,
      nodes: document.nodes.map((node, index) => (index === 4000 ? edited : node)),
    };
    writer.schedule(next);
    void writer.flushLocal();
    const before = persistenceCounters.rowsWritten;
    slices.open();
    await filled;
    await writer.flushLocal();
    expect(errors).toEqual([]);
    expect(slices.pauses).toBeGreaterThanOrEqual(3);
    const cached = await loadCanvasDocument(database, 'fill-test');
    expect(cached?.nodes).toHaveLength(4500);
    expect(cached?.nodes.find((node) => node.id === 'n4000')).toEqual(edited);
    expect(await storedRevision(database, 'fill-test')).toBe('a'.repeat(64));
    // The edit is in the rows but not in that revision: they are no longer exactly its record.
    expect(await exactRevision(database, 'fill-test')).toBeNull();
    // The fill wrote every node pack and the canvas row; the edit's own write the canvas row and the one node's
    // pack, not the whole canvas again.
    const fillRows = new Set(document.nodes.map((node) => packOf(node.id))).size + 1;
    expect(persistenceCounters.rowsWritten - before).toBe(fillRows + 2);
  });

  it('the filled rows are marked as exactly the revision read, so a reload can save only what changed', async () => {
    const database = new WeftDatabase(`fill-${Math.random()}`);
    const errors: unknown[] = [];
    const writer = writerFor(database, () => Promise.resolve(), errors);
    await writer.fill(recordsFromDocument(bigCanvas()), { ready: Promise.resolve(), revision: 'c'.repeat(64) });
    expect(errors).toEqual([]);
    expect(await exactRevision(database, 'fill-test')).toBe('c'.repeat(64));
  });

  it('a read that fails its check is not cached, nor are edits of it', async () => {
    const database = new WeftDatabase(`fill-${Math.random()}`);
    const errors: unknown[] = [];
    const writer = writerFor(database, () => Promise.resolve(), errors);
    const records = recordsFromDocument(bigCanvas());
    const ready = Promise.reject(new Error('damaged'));
    ready.catch(() => undefined);
    await writer.fill(records, { ready, revision: 'b'.repeat(64) });
    writer.schedule({ ...records, canvas: { ...records.canvas, name: 'Renamed' } });
    await writer.flushLocal();
    expect(await loadCanvasDocument(database, 'fill-test')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('a fill of a canvas another fill has just cached never leaves its canvas row over half-rewritten rows', async () => {
    // The arrival cache (`canvas-changed`) finished just after the canvas was opened from the server, whose own fill
    // then rewrites the same rows: a reload meanwhile read the first fill's canvas row over the packs the second had
    // cleared, a canvas with none of its cards (bench:ui's cached reload waited for a card forever).
    const database = new WeftDatabase(`fill-${Math.random()}`);
    const errors: unknown[] = [];
    const records = recordsFromDocument(bigCanvas());
    await fillCanvasRows(database, records, { now: 1, revision: 'd'.repeat(64), pause: () => Promise.resolve() });
    expect((await loadCanvasDocument(database, 'fill-test'))?.nodes).toHaveLength(4500);
    let pauses = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writer = writerFor(database, () => ((pauses += 1), pauses <= 2 ? Promise.resolve() : gate), errors);
    const filled = writer.fill(records, { ready: Promise.resolve(), revision: 'd'.repeat(64) });
    while (pauses < 3) await settle();
    // Part-way through the second fill (the first slice written, the rest waiting): what a reload reads now is
    // either no canvas (read from the server again) or all of it, never the canvas without its cards.
    const midway = await loadCanvasDocument(database, 'fill-test');
    expect(midway === null || midway.nodes.length === 4500).toBe(true);
    release();
    await filled;
    expect(errors).toEqual([]);
    expect((await loadCanvasDocument(database, 'fill-test'))?.nodes).toHaveLength(4500);
    expect(await exactRevision(database, 'fill-test')).toBe('d'.repeat(64));
  });
});
