import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument, NoteNode } from '../../../protocol/canvas-document.ts';
import { sampleCanvas } from '../../../tests/support/sample-canvas.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { WeftDatabase } from '../db/weft-database.ts';
import { TestApp } from './test-app.ts';

// Issue 16: a page reopened from this browser's rows sends its first save as a PATCH of what changed when the rows
// are exactly the record they name, and the whole canvas otherwise; no edit is ever lost either way.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

interface Sent {
  method: string;
  bytes: number;
  status: number;
}

/** Every save request the page sends for one canvas (method, body size, answer status), through the real fetch. */
const realFetch = globalThis.fetch;
/** While set, saves wait for it (a save in flight); `gateReached` is called as one starts waiting. */
let gate: Promise<void> | null = null;
let gateReached = () => {};
function recordSaves(canvasId: string): Sent[] {
  const sent: Sent[] = [];
  globalThis.fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (method === 'GET' || !url.endsWith(`/api/canvases/${canvasId}`)) return realFetch(input, init);
    if (gate) {
      gateReached();
      await gate;
    }
    const response = await realFetch(input, init);
    sent.push({ method, bytes: typeof init?.body === 'string' ? init.body.length : 0, status: response.status });
    return response;
  };
  return sent;
}
afterEach(() => {
  globalThis.fetch = realFetch;
  gate = null;
});

let counter = 0;
const freshName = () => `first-save-${counter++}-${Math.random()}`;

/** A canvas of 300 long notes on the server: about 150 KB whole, so a one-note PATCH is a small fraction of it. */
async function bigCanvas(): Promise<{ id: string; size: number }> {
  const id = `first-save-canvas-${counter++}`;
  const base = sampleCanvas(id, `Big ${id}`);
  const note = base.nodes[0] as NoteNode;
  const notes = Array.from({ length: 300 }, (_, index) => ({
    ...note,
    id: `note-${index + 2}`,
    createdAt: 10 + index,
    text: `Note ${index} `.padEnd(400, '.'),
  }));
  const document: CanvasDocument = { ...base, nodes: [...base.nodes, ...notes] };
  const body = JSON.stringify(document);
  const response = await server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body,
  });
  expect(response.status).toBe(200);
  return { id, size: body.length };
}

async function durable(id: string): Promise<CanvasDocument> {
  return (await (await server.api(`/api/canvases/${id}`)).json()) as CanvasDocument;
}

const noteText = (document: CanvasDocument, nodeId: string) =>
  (document.nodes.find((node) => node.id === nodeId) as NoteNode).text;

function editNote(app: TestApp, nodeId: string, text: string): void {
  expect(app.state.apply({ type: 'edit-node', nodeId, patch: { text } })).toBe(true);
}

/** A page of its own browser profile with the canvas open (read from the server and cached). */
async function openPage(id: string, durableDelayMs?: number): Promise<TestApp> {
  const app = await new TestApp(server, freshName(), durableDelayMs ? { durableDelayMs } : {}).start();
  await app.state.openCanvas(id);
  await app.state.flush();
  return app;
}

/** The same browser profile opened again (a reload): the canvas comes from its rows. */
async function reload(app: TestApp, durableDelayMs?: number): Promise<TestApp> {
  return new TestApp(server, app.database.name, durableDelayMs ? { durableDelayMs } : {}).start();
}

describe('the first save after a reload', () => {
  it('after a save landed, a one-character edit on the reopened page is a PATCH far smaller than the canvas', async () => {
    const { id, size } = await bigCanvas();
    const page = await openPage(id);
    editNote(page, 'note-7', 'Saved before the reload');
    await page.close();

    const reopened = await reload(page);
    expect(reopened.state.activeCanvasId).toBe(id);
    const sent = recordSaves(id);
    editNote(reopened, 'note-9', 'Saved before the reload!');
    await reopened.state.flush();
    expect(sent.map(({ method, status }) => [method, status])).toEqual([['PATCH', 200]]);
    expect(sent[0]!.bytes).toBeLessThan(size / 20);
    const stored = await durable(id);
    expect(noteText(stored, 'note-7')).toBe('Saved before the reload');
    expect(noteText(stored, 'note-9')).toBe('Saved before the reload!');
    await reopened.close();
  });

  it('an edit written to this browser but not yet to the server is in the reopened page’s first save', async () => {
    const { id } = await bigCanvas();
    const page = await openPage(id, 60_000);
    editNote(page, 'note-3', 'Only in this browser');
    await page.store.runtime.writer.flushLocal();
    // Reloaded between the local write (~300 ms) and the durable save (~1 s).
    page.database.close();

    const reopened = await reload(page, 60_000);
    expect(noteText(reopened.state.exportDocument()!, 'note-3')).toBe('Only in this browser');
    recordSaves(id);
    editNote(reopened, 'note-4', 'After the reload');
    await reopened.state.flush();
    const stored = await durable(id);
    expect(noteText(stored, 'note-3')).toBe('Only in this browser');
    expect(noteText(stored, 'note-4')).toBe('After the reload');
    await reopened.close();
  });

  it('an edit written while a save is in flight keeps the rows from being marked as the saved record', async () => {
    const { id } = await bigCanvas();
    const page = await openPage(id, 60_000);
    const writer = page.store.runtime.writer;
    recordSaves(id);
    let release = () => {};
    gate = new Promise((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (gateReached = resolve));
    editNote(page, 'note-5', 'Being saved');
    await writer.flushLocal();
    const saving = writer.flushDurable(false);
    await reached;
    // The newer state reaches the rows before the older one's save lands; it never reaches the server.
    editNote(page, 'note-6', 'Written during the save');
    await writer.flushLocal();
    release();
    await saving;
    await writer.flushLocal();
    page.database.close();
    gate = null;

    const reopened = await reload(page, 60_000);
    editNote(reopened, 'note-8', 'After the reload');
    await reopened.state.flush();
    const stored = await durable(id);
    expect(noteText(stored, 'note-5')).toBe('Being saved');
    expect(noteText(stored, 'note-6')).toBe('Written during the save');
    expect(noteText(stored, 'note-8')).toBe('After the reload');
    await reopened.close();
  });

  it('rows an older Weft wrote (no mark) are saved whole, and the edit is kept', async () => {
    const { id, size } = await bigCanvas();
    const page = await openPage(id);
    editNote(page, 'note-10', 'Saved by this page');
    await page.close();
    const database = new WeftDatabase(page.database.name);
    const row = (await database.revisions.get(id))!;
    expect(row.exact).toBe(true);
    // As the code before the mark left it: the revision alone.
    await database.revisions.put({ canvasId: id, revision: row.revision });
    database.close();

    const reopened = await reload(page);
    const sent = recordSaves(id);
    editNote(reopened, 'note-11', 'After the reload');
    await reopened.state.flush();
    expect(sent.map(({ method }) => method)).toEqual(['PUT']);
    expect(sent[0]!.bytes).toBeGreaterThan(size * 0.9);
    const stored = await durable(id);
    expect(noteText(stored, 'note-10')).toBe('Saved by this page');
    expect(noteText(stored, 'note-11')).toBe('After the reload');
    await reopened.close();
  });

  it('a newer record adopted while the canvas is open keeps the rows exact: the reload’s first save is a PATCH', async () => {
    const { id } = await bigCanvas();
    const page = await openPage(id);
    const other = await openPage(id);
    editNote(other, 'note-15', 'From another page');
    await other.close();
    expect(await page.state.canvasChangedElsewhere(id)).toBe(true);
    await page.close();

    const reopened = await reload(page);
    expect(noteText(reopened.state.exportDocument()!, 'note-15')).toBe('From another page');
    const sent = recordSaves(id);
    editNote(reopened, 'note-16', 'After the reload');
    await reopened.state.flush();
    expect(sent.map(({ method, status }) => [method, status])).toEqual([['PATCH', 200]]);
    const stored = await durable(id);
    expect(noteText(stored, 'note-15')).toBe('From another page');
    expect(noteText(stored, 'note-16')).toBe('After the reload');
    await reopened.close();
  });

  it('a newer record adopted while the canvas is not open keeps its rows exact: opening it later saves a PATCH', async () => {
    const { id } = await bigCanvas();
    const page = await openPage(id);
    await page.state.createCanvas('Elsewhere');
    const other = await openPage(id);
    editNote(other, 'note-17', 'From another page');
    await other.close();
    expect(await page.state.canvasChangedElsewhere(id)).toBe(true);
    await page.close();

    const reopened = await reload(page);
    await reopened.state.openCanvas(id);
    const sent = recordSaves(id);
    editNote(reopened, 'note-18', 'After the reload');
    await reopened.state.flush();
    expect(sent.map(({ method, status }) => [method, status])).toEqual([['PATCH', 200]]);
    const stored = await durable(id);
    expect(noteText(stored, 'note-17')).toBe('From another page');
    expect(noteText(stored, 'note-18')).toBe('After the reload');
    await reopened.close();
  });

  it('a canvas made here is exactly its new record: its first save after a reload is a PATCH', async () => {
    const page = await new TestApp(server, freshName()).start();
    const id = await page.state.createCanvas('Made here');
    await page.close();
    const reopened = await reload(page);
    expect(reopened.state.activeCanvasId).toBe(id);
    const sent = recordSaves(id);
    reopened.addQuestion('First question?');
    await reopened.state.flush();
    expect(sent.map(({ method, status }) => [method, status])).toEqual([['PATCH', 200]]);
    expect((await durable(id)).nodes).toHaveLength(1);
    await reopened.close();
  });

  it('another writer saved meanwhile: the PATCH is refused (409), rebased, and both edits are kept', async () => {
    const { id } = await bigCanvas();
    const page = await openPage(id);
    editNote(page, 'note-12', 'From this page');
    await page.close();
    const other = await openPage(id);
    editNote(other, 'note-13', 'From another page');
    await other.close();

    const reopened = await reload(page);
    const sent = recordSaves(id);
    editNote(reopened, 'note-14', 'After the reload');
    await reopened.state.flush();
    expect(sent.map(({ method, status }) => [method, status])).toEqual([
      ['PATCH', 409],
      ['PATCH', 200],
    ]);
    expect(reopened.lastToast()?.code).toBe('canvas-merged');
    const stored = await durable(id);
    expect(noteText(stored, 'note-12')).toBe('From this page');
    expect(noteText(stored, 'note-13')).toBe('From another page');
    expect(noteText(stored, 'note-14')).toBe('After the reload');
    await reopened.close();
  });
});
