import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleCanvas, withEvents } from '../../tests/support/sample-canvas.ts';
import { CanvasStore } from './canvas-store.ts';

/**
 * Issue 27.3: the anchors journal keeps every head the store writes and a tombstone for every deletion, chained by
 * hash. Deleting or rewriting a head file, or re-creating a deleted record under its id, cannot pass for intact.
 */
let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-anchors-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const recordPath = () => join(directory, 'alpha.weft.json');
const headPath = () => join(directory, 'alpha.head.json');
const journalPath = () => join(directory, 'anchors.jsonl');

describe('the anchors journal', () => {
  it('a log truncated and its head file deleted: verify names the missing events, the next save is refused', async () => {
    const store = new CanvasStore({ directory });
    const document = withEvents(sampleCanvas('alpha'), 5);
    await store.write('alpha', document, { baseRevision: null });
    await writeFile(recordPath(), JSON.stringify({ ...document, events: document.events.slice(0, 3) }));
    await unlink(headPath());

    const fresh = new CanvasStore({ directory });
    expect((await fresh.verify('alpha')).verdict).toEqual({ status: 'missing-at-end', eventCount: 3, missing: 2 });
    const tampered = await fresh.read('alpha');
    await expect(
      fresh.write('alpha', withEvents(tampered.document, 1, 'x'), { baseRevision: tampered.revision }),
    ).rejects.toMatchObject({ code: 'event-log-damaged', message: expect.stringContaining('head file is missing') });
    // Nothing was written: no new head anchors the truncated log.
    await expect(readFile(headPath())).rejects.toThrow();
    expect((await new CanvasStore({ directory }).verify('alpha')).verdict.status).toBe('missing-at-end');
  });

  it('a head file deleted or rewritten beside an intact log: verify says so, the next save is refused', async () => {
    const store = new CanvasStore({ directory });
    const document = withEvents(sampleCanvas('alpha'), 4);
    const saved = await store.write('alpha', document, { baseRevision: null });
    const head = await readFile(headPath(), 'utf8');
    await unlink(headPath());
    const verdict = (await new CanvasStore({ directory }).verify('alpha')).verdict;
    expect(verdict).toMatchObject({ status: 'head-mismatch', eventCount: 4 });
    await expect(
      new CanvasStore({ directory }).write('alpha', withEvents(document, 1, 'x'), { baseRevision: saved.revision }),
    ).rejects.toMatchObject({ code: 'event-log-damaged' });

    // A head rewritten to anchor a shorter log (as if two events had never been written).
    const short = JSON.parse(head) as { eventCount: number; lastEventHash: string };
    await writeFile(
      headPath(),
      JSON.stringify({ ...short, eventCount: 2, lastEventHash: document.events[1]!.hash }),
      'utf8',
    );
    await writeFile(recordPath(), JSON.stringify({ ...document, events: document.events.slice(0, 2) }));
    expect((await new CanvasStore({ directory }).verify('alpha')).verdict).toEqual({
      status: 'missing-at-end',
      eventCount: 2,
      missing: 2,
    });
  });

  it('delete then a record with a forged log under the same id: a new record, never the old one intact', async () => {
    const store = new CanvasStore({ directory, now: () => 1_800_000_000_000 });
    await store.write('alpha', withEvents(sampleCanvas('alpha'), 6), { baseRevision: null });
    expect((await store.verify('alpha')).recreatedAfter).toBeNull();
    expect(await store.delete('alpha')).toBe(true);
    await store.write('alpha', withEvents(sampleCanvas('alpha', 'Forged'), 3, 'f'), { baseRevision: null });
    const verified = await new CanvasStore({ directory }).verify('alpha');
    expect(verified.verdict).toMatchObject({ status: 'intact', eventCount: 3 });
    expect(verified.recreatedAfter).toEqual({ deletedAt: 1_800_000_000_000, eventCount: 6 });
  });

  it('a record removed outside Weft is not silently started afresh under its id', async () => {
    const store = new CanvasStore({ directory });
    await store.write('alpha', withEvents(sampleCanvas('alpha'), 2), { baseRevision: null });
    await unlink(recordPath());
    await unlink(headPath());
    await expect(
      new CanvasStore({ directory }).write('alpha', withEvents(sampleCanvas('alpha'), 1, 'n'), { baseRevision: null }),
    ).rejects.toMatchObject({ code: 'event-log-damaged', message: expect.stringContaining('record is gone') });
  });

  it('an altered journal line breaks its chain: verify names it and no save appends after it', async () => {
    const store = new CanvasStore({ directory });
    const first = await store.write('alpha', withEvents(sampleCanvas('alpha'), 1), { baseRevision: null });
    const second = await store.write('alpha', withEvents(first.document, 1, 'b'), { baseRevision: first.revision });
    const lines = (await readFile(journalPath(), 'utf8')).trimEnd().split('\n');
    lines[0] = lines[0]!.replace('"eventCount":1', '"eventCount":9');
    await writeFile(journalPath(), `${lines.join('\n')}\n`);
    const reopened = new CanvasStore({ directory });
    expect(await reopened.anchors.verify()).toEqual({ status: 'bad-line', lines: 2, index: 0 });
    await expect(
      reopened.write('alpha', withEvents(second.document, 1, 'c'), { baseRevision: second.revision }),
    ).rejects.toMatchObject({ code: 'event-log-damaged', message: expect.stringContaining('line 1') });
  });

  it('a torn last line (a crash mid-append) is no line: the next append cuts it and the chain holds', async () => {
    const store = new CanvasStore({ directory });
    const first = await store.write('alpha', withEvents(sampleCanvas('alpha'), 1), { baseRevision: null });
    await writeFile(journalPath(), `${await readFile(journalPath(), 'utf8')}{"seq":2,"at":`);
    const reopened = new CanvasStore({ directory });
    expect(await reopened.anchors.verify()).toEqual({ status: 'intact', lines: 1 });
    await reopened.write('alpha', withEvents(first.document, 1, 'b'), { baseRevision: first.revision });
    expect(await new CanvasStore({ directory }).anchors.verify()).toEqual({ status: 'intact', lines: 2 });
    expect((await new CanvasStore({ directory }).verify('alpha')).verdict).toMatchObject({ status: 'intact' });
  });

  it('a journal one write behind its head (a crash between the two) still verifies and saves', async () => {
    const store = new CanvasStore({ directory });
    const first = await store.write('alpha', withEvents(sampleCanvas('alpha'), 2), { baseRevision: null });
    const second = await store.write('alpha', withEvents(first.document, 2, 'b'), { baseRevision: first.revision });
    const lines = (await readFile(journalPath(), 'utf8')).trimEnd().split('\n');
    await writeFile(journalPath(), `${lines.slice(0, -1).join('\n')}\n`);
    const reopened = new CanvasStore({ directory });
    expect((await reopened.verify('alpha')).verdict).toMatchObject({ status: 'intact', eventCount: 4 });
    await reopened.write('alpha', withEvents(second.document, 1, 'c'), { baseRevision: second.revision });
  });
});

describe('the anchors journal under concurrent saves', () => {
  it('saves of many canvases at once each append onto the line before: the chain holds and later saves go on', async () => {
    const store = new CanvasStore({ directory });
    const ids = Array.from({ length: 8 }, (_, index) => `c${index}`);
    const saved = await Promise.all(
      ids.map((id) => store.write(id, withEvents(sampleCanvas(id), 2), { baseRevision: null })),
    );
    expect(await new CanvasStore({ directory }).anchors.verify()).toEqual({ status: 'intact', lines: 8 });
    await Promise.all(
      saved.map((record, index) =>
        store.write(ids[index]!, withEvents(record.document, 1, 'b'), { baseRevision: record.revision }),
      ),
    );
    expect(await new CanvasStore({ directory }).anchors.verify()).toEqual({ status: 'intact', lines: 16 });
  });

  it('a second store on the same folder (another process) appends after what the first wrote', async () => {
    const first = new CanvasStore({ directory });
    const second = new CanvasStore({ directory });
    const a = await first.write('a', withEvents(sampleCanvas('a'), 1), { baseRevision: null });
    await second.write('b', withEvents(sampleCanvas('b'), 1), { baseRevision: null });
    await first.write('a', withEvents(a.document, 1, 'x'), { baseRevision: a.revision });
    expect(await new CanvasStore({ directory }).anchors.verify()).toEqual({ status: 'intact', lines: 3 });
  });

  it('a damaged journal refuses a save before anything is written, and verify names it', async () => {
    const store = new CanvasStore({ directory });
    await store.write('alpha', withEvents(sampleCanvas('alpha'), 1), { baseRevision: null });
    await writeFile(journalPath(), (await readFile(journalPath(), 'utf8')).replace('"eventCount":1', '"eventCount":7'));
    const reopened = new CanvasStore({ directory });
    await expect(
      reopened.write('beta', withEvents(sampleCanvas('beta'), 1), { baseRevision: null }),
    ).rejects.toMatchObject({ code: 'event-log-damaged' });
    await expect(readFile(join(directory, 'beta.weft.json'))).rejects.toThrow();
    await expect(readFile(join(directory, 'beta.head.json'))).rejects.toThrow();
    expect((await reopened.verify('alpha')).verdict).toMatchObject({
      status: 'head-mismatch',
      detail: expect.stringContaining('journal breaks at line 1'),
    });
  });

  it('a record that no longer parses can still be deleted, and leaves a tombstone', async () => {
    const store = new CanvasStore({ directory });
    await store.write('alpha', withEvents(sampleCanvas('alpha'), 2), { baseRevision: null });
    await unlink(headPath());
    await writeFile(recordPath(), '{ not json');
    const reopened = new CanvasStore({ directory });
    expect(await reopened.delete('alpha')).toBe(true);
    expect(await reopened.anchors.lastDeletion('alpha')).toMatchObject({ kind: 'deleted', eventCount: 0 });
  });
});
