import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument, CanvasVerifyResponse, NoteNode } from '../../../protocol/index.ts';
import { sampleCanvas } from '../../../tests/support/sample-canvas.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import type { PageLocks } from './page-locks.ts';
import { TestApp } from './test-app.ts';

// Issue 27, part 1: an edit typed in a page closed or reloaded before its save landed is replayed at the next
// visit, onto whatever was saved in between, through the same rebase as within a visit; never twice, never lost.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Saves of `canvasId` never reach the server (`lost`), or reach it and their answer is lost (`unanswered`). */
function breakSaves(canvasId: string, how: 'lost' | 'unanswered'): void {
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if ((init?.method ?? 'GET') === 'GET' || !url.endsWith(`/api/canvases/${canvasId}`)) return realFetch(input, init);
    if (how === 'unanswered') await realFetch(input, init);
    throw new TypeError('Failed to fetch');
  };
}

let counter = 0;
const freshName = () => `pending-${counter++}-${Math.random()}`;

async function storedCanvas(): Promise<string> {
  const id = `pending-canvas-${counter++}`;
  const base = sampleCanvas(id, `Pending ${id}`);
  const note = base.nodes[0] as NoteNode;
  const notes = ['a', 'b', 'c'].map((name, index) => ({
    ...note,
    id: `note-${name}`,
    createdAt: 10 + index,
    text: name,
  }));
  const document: CanvasDocument = { ...base, nodes: [...base.nodes, ...notes] };
  const response = await server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  expect(response.status).toBe(200);
  return id;
}

async function durable(id: string): Promise<CanvasDocument> {
  return (await (await server.api(`/api/canvases/${id}`)).json()) as CanvasDocument;
}

async function verify(id: string): Promise<CanvasVerifyResponse> {
  return (await (await server.api(`/api/canvases/${id}/verify`)).json()) as CanvasVerifyResponse;
}

const noteText = (document: CanvasDocument, nodeId: string) =>
  (document.nodes.find((node) => node.id === nodeId) as NoteNode | undefined)?.text;

function editNote(app: TestApp, nodeId: string, text: string): void {
  expect(app.state.apply({ type: 'edit-node', nodeId, patch: { text } })).toBe(true);
}

async function openPage(
  id: string,
  databaseName = freshName(),
  tuning: { pageLocks?: PageLocks; durableDelayMs?: number } = {},
) {
  const app = await new TestApp(server, databaseName, tuning).start();
  await app.state.openCanvas(id);
  await app.state.flush();
  return app;
}

/** A page whose saves wait for a flush (none lands unasked after the test has unblocked the route). */
const leaving = (id: string, pageLocks?: PageLocks) =>
  openPage(id, freshName(), { durableDelayMs: 60_000, ...(pageLocks ? { pageLocks } : {}) });

/** The page goes (closed, reloaded, crashed) after its rows were written and before any save of them landed. */
async function leave(app: TestApp): Promise<void> {
  await app.store.runtime.writer.flushLocal();
  app.database.close();
}

describe('pending changes across visits', () => {
  it('a page closed before its save landed: its edit is kept in IndexedDB, replayed onto the newer record at the next visit', async () => {
    const id = await storedCanvas();
    const page = await leaving(id);
    breakSaves(id, 'lost');
    editNote(page, 'note-a', 'typed in the closed tab');
    await leave(page);
    globalThis.fetch = realFetch;

    const other = await openPage(id);
    editNote(other, 'note-b', 'typed in the other tab');
    await other.close();

    const reopened = await new TestApp(server, page.database.name).start();
    await reopened.state.flush();
    expect(reopened.state.activeCanvasId).toBe(id);
    const stored = await durable(id);
    expect(noteText(stored, 'note-a')).toBe('typed in the closed tab');
    expect(noteText(stored, 'note-b')).toBe('typed in the other tab');
    expect(noteText(reopened.state.exportDocument()!, 'note-b')).toBe('typed in the other tab');
    expect((await verify(id)).verdict).toMatchObject({ status: 'intact', anchored: true });
    // Acknowledged, so gone from the queue: a further reload replays nothing.
    expect(await reopened.database.pending.count()).toBe(0);
    expect(reopened.state.unapplied).toBeNull();
    await reopened.close();
  });

  it('an edit of a card deleted elsewhere is listed as not applied, with what was kept', async () => {
    const id = await storedCanvas();
    const page = await leaving(id);
    breakSaves(id, 'lost');
    editNote(page, 'note-a', 'edited after it was deleted');
    editNote(page, 'note-c', 'still here');
    await leave(page);
    globalThis.fetch = realFetch;

    const other = await openPage(id);
    expect(other.state.apply({ type: 'delete-node', nodeId: 'note-a' })).toBe(true);
    await other.close();

    const reopened = await new TestApp(server, page.database.name).start();
    await reopened.state.flush();
    const stored = await durable(id);
    expect(noteText(stored, 'note-a')).toBeUndefined();
    expect(noteText(stored, 'note-c')).toBe('still here');
    expect(reopened.state.unapplied).toMatchObject({ canvasId: id, kept: 1 });
    expect(reopened.state.unapplied!.notApplied).toHaveLength(1);
    // Named as the page last showed it: what the person typed and did not get.
    expect(reopened.state.unapplied!.notApplied[0]!.what).toBe('An edit of “edited after it was deleted”');
    expect(reopened.state.unapplied!.notApplied[0]!.reason.length).toBeGreaterThan(5);
    reopened.state.dismissUnapplied();
    expect(reopened.state.unapplied).toBeNull();
    expect((await verify(id)).verdict).toMatchObject({ status: 'intact' });
    await reopened.close();
  });

  it('a save that landed without its answer (sent as the page closed) is not applied twice at the next visit', async () => {
    const id = await storedCanvas();
    const page = await leaving(id);
    const before = (await durable(id)).events.length;
    breakSaves(id, 'unanswered');
    editNote(page, 'note-a', 'sent as the page closed');
    await page.store.runtime.writer.flush(true);
    await leave(page);
    globalThis.fetch = realFetch;
    const landed = await durable(id);
    expect(noteText(landed, 'note-a')).toBe('sent as the page closed');
    expect(landed.events.length).toBe(before + 1);

    const other = await openPage(id);
    editNote(other, 'note-b', 'saved in between');
    await other.close();

    const reopened = await new TestApp(server, page.database.name).start();
    await reopened.state.flush();
    const stored = await durable(id);
    expect(noteText(stored, 'note-a')).toBe('sent as the page closed');
    expect(noteText(stored, 'note-b')).toBe('saved in between');
    // One event per edit: the replayed step was found in the record, not applied again.
    expect(stored.events.length).toBe(before + 2);
    expect(new Set(stored.events.map((event) => event.id)).size).toBe(stored.events.length);
    expect((await verify(id)).verdict).toMatchObject({ status: 'intact', eventCount: before + 2 });
    expect(await reopened.database.pending.count()).toBe(0);
    await reopened.close();
  });

  it('an undo whose save landed unanswered is not replayed over a later edit of the card: listed as not applied', async () => {
    const id = await storedCanvas();
    const page = await leaving(id);
    breakSaves(id, 'unanswered');
    editNote(page, 'note-a', 'typed then undone');
    page.state.undo();
    expect(noteText(page.state.exportDocument()!, 'note-a')).toBe('a');
    await page.store.runtime.writer.flush(true);
    await leave(page);
    globalThis.fetch = realFetch;
    expect(noteText(await durable(id), 'note-a')).toBe('a');

    const other = await openPage(id);
    editNote(other, 'note-a', 'typed in the other tab');
    await other.close();

    const reopened = await new TestApp(server, page.database.name).start();
    await reopened.state.flush();
    const stored = await durable(id);
    expect(noteText(stored, 'note-a')).toBe('typed in the other tab');
    expect(noteText(reopened.state.exportDocument()!, 'note-a')).toBe('typed in the other tab');
    expect(reopened.state.unapplied).toMatchObject({ canvasId: id, kept: 1 });
    expect(reopened.state.unapplied!.notApplied.map((entry) => entry.what)).toEqual(['An undo or redo']);
    expect((await verify(id)).verdict).toMatchObject({ status: 'intact' });
    expect(await reopened.database.pending.count()).toBe(0);
    await reopened.close();
  });

  it('an undo not yet saved still applies at the next visit when no one else touched the card', async () => {
    const id = await storedCanvas();
    const page = await leaving(id);
    editNote(page, 'note-a', 'typed, saved, then undone');
    await page.state.flush();
    expect(noteText(await durable(id), 'note-a')).toBe('typed, saved, then undone');
    breakSaves(id, 'lost');
    page.state.undo();
    await leave(page);
    globalThis.fetch = realFetch;

    const other = await openPage(id);
    editNote(other, 'note-b', 'typed in the other tab');
    await other.close();

    const reopened = await new TestApp(server, page.database.name).start();
    await reopened.state.flush();
    const stored = await durable(id);
    expect(noteText(stored, 'note-a')).toBe('a');
    expect(noteText(stored, 'note-b')).toBe('typed in the other tab');
    expect(reopened.state.unapplied).toBeNull();
    expect((await verify(id)).verdict).toMatchObject({ status: 'intact' });
    expect(await reopened.database.pending.count()).toBe(0);
    await reopened.close();
  });

  it('two pages of one browser: a page still open keeps its queue; only a page that is gone is taken over', async () => {
    const id = await storedCanvas();
    const held = new Set<string>();
    const pageLocks: PageLocks = { hold: (owner) => held.add(owner), live: async () => new Set(held) };
    const name = freshName();
    const first = await openPage(id, name, { pageLocks, durableDelayMs: 60_000 });
    breakSaves(id, 'lost');
    editNote(first, 'note-a', 'typed in the first page');
    await first.store.runtime.writer.flushLocal();
    const [queued] = await first.database.pending.toArray();
    expect(queued).toMatchObject({ canvasId: id, owner: first.store.runtime.owner });

    const second = await new TestApp(server, name, { pageLocks }).start();
    expect(second.state.activeCanvasId).toBe(id);
    expect(second.store.runtime.journal.pending(id)).toHaveLength(0);
    expect((await second.database.pending.toArray()).map((row) => row.owner)).toEqual([first.store.runtime.owner]);

    // The first page goes without its save landing: the next page to open the canvas takes its step over.
    held.delete(first.store.runtime.owner);
    first.database.close();
    globalThis.fetch = realFetch;
    await second.state.openCanvas(id);
    await second.state.flush();
    expect(noteText(await durable(id), 'note-a')).toBe('typed in the first page');
    expect(await second.database.pending.count()).toBe(0);
    second.database.close();
  });
});
