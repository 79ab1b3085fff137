import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANVAS_VERSION, type CanvasDocument } from '../../protocol/canvas-document.ts';
import { failingAt, type Step } from '../../tests/support/failing-file-system.ts';
import { sampleCanvas, withEvents } from '../../tests/support/sample-canvas.ts';
import { nodeAtomicFileSystem, type AtomicFileSystem } from './atomic-write.ts';
import { CanvasStore } from './canvas-store.ts';
import { ParsedCanvasCache } from './parsed-canvas-cache.ts';
import { chainCanvas } from '../../tests/support/chain-canvas.ts';
import { canvasPatchBetween } from '../../protocol/canvas-patch.ts';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-store-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('CanvasStore', () => {
  it.each<Step>(['after temp write', 'after fsync', 'before rename'])(
    'an interrupted write (%s) keeps the previous record readable',
    async (step) => {
      const good = new CanvasStore({ directory });
      const first = await good.write('alpha', sampleCanvas('alpha', 'Alpha', 'first text'), { baseRevision: null });
      const faulty = new CanvasStore({ directory, fileSystem: failingAt(step) });
      await expect(
        faulty.write('alpha', sampleCanvas('alpha', 'Alpha', 'second text'), { baseRevision: first.revision }),
      ).rejects.toThrow(/injected/);
      const { document, revision } = await good.read('alpha');
      expect(document.nodes[0]).toMatchObject({ kind: 'note', text: 'first text' });
      expect(revision).toBe(first.revision);
      expect((await readdir(directory)).sort()).toEqual(['alpha.head.json', 'alpha.weft.json', 'anchors.jsonl']);
    },
  );

  it('serialises concurrent writes to one canvas: steps never interleave, each write based on the last one', async () => {
    const log: string[] = [];
    const delay = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    const slow: AtomicFileSystem = {
      ...nodeAtomicFileSystem,
      async writeTemp(path, data, mode) {
        if (path.includes('alpha.weft.json'))
          log.push(`start ${(JSON.parse(String(data)) as { nodes: { text: string }[] }).nodes[0]!.text}`);
        await delay();
        await nodeAtomicFileSystem.writeTemp(path, data, mode);
      },
      async rename(from, to) {
        await delay();
        await nodeAtomicFileSystem.rename(from, to);
        if (to.endsWith('alpha.weft.json')) log.push('end');
      },
    };
    const store = new CanvasStore({ directory, fileSystem: slow });
    let revision: string | null = null;
    const writes: Promise<unknown>[] = [];
    for (let index = 0; index < 6; index += 1) {
      const base = revision;
      const write = store.write('alpha', sampleCanvas('alpha', 'Alpha', `text ${index}`), { baseRevision: base });
      writes.push(write);
      revision = (await write).revision;
    }
    writes.push(store.write('beta', sampleCanvas('beta', 'Beta', 'beta text'), { baseRevision: null }));
    await Promise.all(writes);
    expect(log).toEqual(Array.from({ length: 6 }, (_, index) => [`start text ${index}`, 'end']).flat());
    expect((await store.read('alpha')).document.nodes[0]).toMatchObject({ text: 'text 5' });
    expect((await store.list()).canvases.map((canvas) => canvas.id).sort()).toEqual(['alpha', 'beta']);
  });

  it('two writers based on the same revision: exactly one is stored, the other gets revision-conflict', async () => {
    const store = new CanvasStore({ directory });
    const { revision } = await store.write('alpha', sampleCanvas('alpha', 'Alpha', 'base'), { baseRevision: null });
    const results = await Promise.allSettled([
      store.write('alpha', sampleCanvas('alpha', 'Alpha', 'from tab one'), { baseRevision: revision }),
      store.write('alpha', sampleCanvas('alpha', 'Alpha', 'from tab two'), { baseRevision: revision }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'revision-conflict', status: 409 });
    expect((await store.read('alpha')).document.nodes[0]).toMatchObject({ text: 'from tab one' });
    // No revision named, over an existing record: refused too (a save from a copy that never saw it).
    await expect(store.write('alpha', sampleCanvas('alpha'), { baseRevision: null })).rejects.toMatchObject({
      code: 'revision-conflict',
    });
  });

  it('refuses a log that drops, alters or reorders stored events, and appended events that do not chain', async () => {
    const store = new CanvasStore({ directory });
    const stored = withEvents(sampleCanvas('alpha'), 4);
    const { revision } = await store.write('alpha', stored, { baseRevision: null });
    const before = await readFile(join(directory, 'alpha.weft.json'), 'utf8');
    const truncated = { ...stored, events: stored.events.slice(0, 2) };
    const altered = {
      ...stored,
      events: stored.events.map((event, index) => (index === 1 ? { ...event, meta: { n: 99 } } : event)),
    };
    const reordered = { ...stored, events: [stored.events[1]!, stored.events[0]!, ...stored.events.slice(2)] };
    const forged = withEvents(stored, 1);
    forged.events[4] = { ...forged.events[4]!, prevHash: stored.events[2]!.hash };
    const cases: [CanvasDocument, RegExp][] = [
      [truncated, /2 stored events are missing at the end/],
      [altered, /event 2 \(id e-2\) differs/],
      [reordered, /event 1 \(id e-1\) differs/],
      [forged, /appended event 5 .* does not chain/],
    ];
    for (const [document, message] of cases) {
      await expect(store.write('alpha', document, { baseRevision: revision })).rejects.toMatchObject({
        code: 'event-log-rewrite',
        status: 409,
        message: expect.stringMatching(message),
      });
    }
    expect(await readFile(join(directory, 'alpha.weft.json'), 'utf8')).toBe(before);
    // Appending is what a write may do.
    const grown = await store.write('alpha', withEvents(stored, 2), { baseRevision: revision });
    expect(grown.document.events).toHaveLength(6);
  });

  it('keeps the chain head beside the record: verify names events missing at the end and the first bad event', async () => {
    const store = new CanvasStore({ directory });
    const document = withEvents(sampleCanvas('alpha'), 5);
    await store.write('alpha', document, { baseRevision: null });
    expect(await store.verify('alpha')).toMatchObject({
      verdict: { status: 'intact', eventCount: 5, anchored: true },
      head: { eventCount: 5, lastEventHash: document.events[4]!.hash },
    });
    // Someone edits the file by hand: drops the last two events (the chain alone cannot show this)…
    const path = join(directory, 'alpha.weft.json');
    await writeFile(path, JSON.stringify({ ...document, events: document.events.slice(0, 3) }));
    expect((await store.verify('alpha')).verdict).toEqual({ status: 'missing-at-end', eventCount: 3, missing: 2 });
    // …and a save based on that copy is refused: the store does not let the head follow a rewrite.
    const tampered = await store.read('alpha');
    await expect(
      store.write('alpha', withEvents(tampered.document, 1, 'x'), { baseRevision: tampered.revision }),
    ).rejects.toMatchObject({ code: 'event-log-damaged', message: expect.stringContaining('2 events are missing') });
    // Altering one event in place names it.
    const altered = document.events.map((event, index) => (index === 2 ? { ...event, op: 'delete' } : event));
    await writeFile(path, JSON.stringify({ ...document, events: altered }));
    expect((await store.verify('alpha')).verdict).toEqual({
      status: 'bad-event',
      eventCount: 5,
      index: 2,
      eventId: 'e-3',
    });
  });

  it('names one altered event in the middle of a long log (10,000 events), however small the change', async () => {
    const store = new CanvasStore({ directory });
    const document = withEvents(sampleCanvas('alpha'), 10_000);
    await store.write('alpha', document, { baseRevision: null });
    expect((await store.verify('alpha')).verdict).toEqual({ status: 'intact', eventCount: 10_000, anchored: true });
    const path = join(directory, 'alpha.weft.json');
    const middle = 6_789;
    const event = document.events[middle]!;
    // The same digits as text rather than a number, one millisecond later, and an escaped character added.
    for (const altered of [
      { ...event, meta: { n: String(event.meta.n) } },
      { ...event, at: event.at + 1 },
      { ...event, objectId: `${event.objectId}\n` },
    ]) {
      const events = document.events.map((kept, index) => (index === middle ? altered : kept));
      await writeFile(path, JSON.stringify({ ...document, events }));
      expect((await store.verify('alpha')).verdict).toEqual({
        status: 'bad-event',
        eventCount: 10_000,
        index: middle,
        eventId: event.id,
      });
    }
  });

  it('writes version 4: no event stores the prevHash its order gives, reads back whole, tampering still named', async () => {
    const store = new CanvasStore({ directory });
    const document = withEvents(sampleCanvas('alpha'), 5);
    await store.write('alpha', document, { baseRevision: null });
    const path = join(directory, 'alpha.weft.json');
    const file = JSON.parse(await readFile(path, 'utf8')) as { version: number; events: unknown[][] };
    expect(file.version).toBe(4);
    // Events are stored as tuples; a seventh entry would be a prevHash that does not follow.
    expect(file.events.filter((event) => event.length !== 6)).toEqual([]);
    expect((await store.read('alpha')).document.events).toEqual(document.events);
    expect((await store.verify('alpha')).verdict).toMatchObject({ status: 'intact', eventCount: 5 });
    // Dropping a middle event from the compact file: the next one's restored link is not what its hash covers.
    await writeFile(path, JSON.stringify({ ...file, events: file.events.filter((_event, index) => index !== 2) }));
    expect((await store.verify('alpha')).verdict).toMatchObject({ status: 'bad-event', index: 2, eventId: 'e-4' });
  });

  it('a version-2 record (every prevHash stored) is read as it was and written back as version 4', async () => {
    const document = withEvents(sampleCanvas('alpha'), 3);
    const path = join(directory, 'alpha.weft.json');
    await writeFile(path, JSON.stringify({ ...document, version: 2 }));
    const store = new CanvasStore({ directory });
    const old = await store.read('alpha');
    expect(old.document.events).toEqual(document.events);
    expect((await store.verify('alpha')).verdict).toMatchObject({ status: 'intact', eventCount: 3 });
    await store.write('alpha', withEvents(old.document, 1), { baseRevision: old.revision });
    const file = JSON.parse(await readFile(path, 'utf8')) as { version: number; events: unknown[][] };
    expect(file.version).toBe(4);
    expect(file.events).toHaveLength(4);
    expect(file.events.some((event) => event.length !== 6)).toBe(false);
  });

  it('stores a new record whose log is already broken (an import) and keeps accepting appends to it', async () => {
    const store = new CanvasStore({ directory });
    const broken = withEvents(sampleCanvas('alpha'), 3);
    broken.events[1] = { ...broken.events[1]!, meta: { n: 'edited by hand' } };
    const { revision } = await store.write('alpha', broken, { baseRevision: null });
    expect((await store.verify('alpha')).verdict).toMatchObject({ status: 'bad-event', index: 1 });
    const next = await store.write('alpha', withEvents(broken, 1), { baseRevision: revision });
    expect(next.document.events).toHaveLength(4);
    // Cut short by hand afterwards: that is still named, past the break it was imported with.
    await writeFile(
      join(directory, 'alpha.weft.json'),
      JSON.stringify({ ...next.document, events: next.document.events.slice(0, 2) }),
    );
    expect((await store.verify('alpha')).verdict).toEqual({ status: 'missing-at-end', eventCount: 2, missing: 2 });
  });

  it('a record written before chain heads were kept gets one at its next write', async () => {
    const document = withEvents(sampleCanvas('alpha'), 2);
    await writeFile(join(directory, 'alpha.weft.json'), JSON.stringify(document));
    const store = new CanvasStore({ directory });
    const old = await store.read('alpha');
    expect((await store.verify('alpha')).verdict).toEqual({ status: 'intact', eventCount: 2, anchored: false });
    await store.write('alpha', withEvents(document, 1), { baseRevision: old.revision });
    expect((await store.verify('alpha')).verdict).toEqual({ status: 'intact', eventCount: 3, anchored: true });
  });

  it('refuses a newer format version with 409 newer-version, touching nothing', async () => {
    const store = new CanvasStore({ directory });
    await expect(
      store.write('alpha', { ...sampleCanvas('alpha'), version: CANVAS_VERSION + 1 }, { baseRevision: null }),
    ).rejects.toMatchObject({ code: 'newer-version', status: 409 });
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses a document for another id, a foreign file, and a bad id, touching nothing', async () => {
    const store = new CanvasStore({ directory });
    const { revision } = await store.write('alpha', sampleCanvas('alpha'), { baseRevision: null });
    const before = await readFile(join(directory, 'alpha.weft.json'), 'utf8');
    await expect(store.write('alpha', sampleCanvas('other'), { baseRevision: revision })).rejects.toMatchObject({
      code: 'invalid-canvas',
    });
    await expect(store.write('alpha', { hello: 'world' }, { baseRevision: revision })).rejects.toMatchObject({
      code: 'invalid-canvas',
      message: expect.stringContaining('format'),
    });
    await expect(store.write('../escape', sampleCanvas('alpha'), { baseRevision: null })).rejects.toMatchObject({
      code: 'invalid-id',
    });
    expect(await readFile(join(directory, 'alpha.weft.json'), 'utf8')).toBe(before);
  });

  it('reports a corrupt stored record without changing it', async () => {
    await writeFile(join(directory, 'broken.weft.json'), '{"format":"weft.canvas","version":1,"nodes":[');
    const store = new CanvasStore({ directory });
    await expect(store.read('broken')).rejects.toMatchObject({ code: 'corrupt-record' });
    const listing = await store.list();
    expect(listing.unreadable).toEqual(['broken']);
    expect(await readFile(join(directory, 'broken.weft.json'), 'utf8')).toBe(
      '{"format":"weft.canvas","version":1,"nodes":[',
    );
  });

  it('deletes the chain head with its record', async () => {
    const store = new CanvasStore({ directory });
    await store.write('alpha', withEvents(sampleCanvas('alpha'), 1), { baseRevision: null });
    expect(await store.delete('alpha')).toBe(true);
    // The anchors journal stays, with the record's tombstone.
    expect(await readdir(directory)).toEqual(['anchors.jsonl']);
    expect(await store.anchors.lastDeletion('alpha')).toMatchObject({ kind: 'deleted', eventCount: 1 });
  });
});

describe('CanvasStore: parsed records kept per revision', () => {
  const answered = () => chainCanvas('kept', 3, 4);

  it('an unchanged record is parsed once: later reads share one frozen document', async () => {
    const store = new CanvasStore({ directory });
    await store.write('kept', answered(), { baseRevision: null });
    const first = await new CanvasStore({ directory }).read('kept');
    const reader = new CanvasStore({ directory });
    const once = await reader.read('kept');
    const again = await reader.read('kept');
    expect(again.document).toBe(once.document);
    expect(again.revision).toBe(first.revision);
    expect(once.document).toEqual(first.document);
    expect(Object.isFrozen(once.document.nodes[0])).toBe(true);
    expect(() => (once.document.nodes as unknown[]).push(null)).toThrow(TypeError);
  });

  it('a written or patched record is kept as what a fresh read of its file gives', async () => {
    const store = new CanvasStore({ directory });
    const before = answered();
    const written = await store.write('kept', before, { baseRevision: null });
    const fresh = async () => (await new CanvasStore({ directory }).read('kept')).document;
    const kept = await store.read('kept');
    expect(kept.document).toBe(written.document);
    expect(kept.document).toEqual(await fresh());

    const node = before.nodes[5]!;
    const after = {
      ...before,
      nodes: before.nodes.map((each) => (each === node ? { ...node, position: { x: 9, y: 9 } } : each)),
    };
    const patched = await store.patch('kept', canvasPatchBetween(before, after)!, { baseRevision: written.revision });
    const read = await store.read('kept');
    expect(read.revision).toBe(patched.revision);
    expect(read.document).toBe(patched.document);
    expect(read.document).toEqual(await fresh());
    expect(read.document.nodes[5]!.position).toEqual({ x: 9, y: 9 });
  });

  it('a record changed outside Weft is a new revision and is parsed again; a damaged one is refused', async () => {
    const store = new CanvasStore({ directory });
    await store.write('kept', sampleCanvas('kept', 'Kept', 'first text'), { baseRevision: null });
    expect((await store.read('kept')).document.nodes[0]).toMatchObject({ text: 'first text' });
    const path = join(directory, 'kept.weft.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('first text', 'changed outside'));
    expect((await store.read('kept')).document.nodes[0]).toMatchObject({ text: 'changed outside' });
    await writeFile(path, '{ not json');
    await expect(store.read('kept')).rejects.toMatchObject({ code: 'corrupt-record' });
  });

  it('keeps at most its bound, and a deleted record is gone from it', async () => {
    const store = new CanvasStore({ directory, parsed: new ParsedCanvasCache({ maxEntries: 1 }) });
    await store.write('one', sampleCanvas('one'), { baseRevision: null });
    await store.write('two', sampleCanvas('two'), { baseRevision: null });
    const two = await store.read('two');
    expect((await store.read('two')).document).toBe(two.document);
    const one = await store.read('one');
    // Reading "one" pushed "two" out.
    expect((await store.read('two')).document).not.toBe(two.document);
    expect(await store.delete('one')).toBe(true);
    await expect(store.read('one')).rejects.toMatchObject({ code: 'not-found' });
    await store.write('one', sampleCanvas('one', 'Again'), { baseRevision: null });
    expect((await store.read('one')).document).not.toBe(one.document);
    expect((await store.read('one')).document.canvas.name).toBe('Again');
  });
});
