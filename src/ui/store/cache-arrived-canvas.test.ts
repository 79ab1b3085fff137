import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument, QuestionNode } from '../../../protocol/canvas-document.ts';
import { createApiClient } from '../api/api-client.ts';
import { loadCanvasDocument, storedRevision } from '../db/canvas-persistence.ts';
import { recordsFromDocument } from '../db/canvas-records.ts';
import { fillCanvasRows } from '../db/fill-canvas-rows.ts';
import { WeftDatabase } from '../db/weft-database.ts';
import { sampleCanvas, startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { cacheArrivedCanvas } from './cache-arrived-canvas.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

/** A canvas of 4,500 questions (several cache slices), stored on the server as if made elsewhere. */
async function storeElsewhere(id: string): Promise<{ document: CanvasDocument; revision: string }> {
  const base = sampleCanvas(id, 'Made elsewhere');
  const question = base.nodes[1] as QuestionNode;
  const document = {
    ...base,
    wires: [],
    nodes: Array.from({ length: 4500 }, (_, index) => ({ ...question, id: `q${index}`, question: `Q${index}?` })),
  };
  const response = await server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  expect(response.status).toBe(200);
  return { document, revision: ((await response.json()) as { revision: string }).revision };
}

describe('a canvas made elsewhere that this page holds no copy of', () => {
  it('is cached whole when it arrives (canvas-changed) and listed', async () => {
    const app = await new TestApp(server, `arrived-${Math.random()}`).start();
    const { document, revision } = await storeElsewhere('arrived-whole');
    expect(await app.state.canvasChangedElsewhere('arrived-whole', revision)).toBe(true);
    const cached = await loadCanvasDocument(app.database, 'arrived-whole');
    expect(cached?.nodes.map((node) => node.id).sort()).toEqual(document.nodes.map((node) => node.id).sort());
    expect(await storedRevision(app.database, 'arrived-whole')).toBe(revision);
    expect(app.state.canvases.map((canvas) => canvas.id)).toContain('arrived-whole');
    await app.close();
  });

  it('is cached in slices that leave IndexedDB free between them, and stops, unread, when it is opened meanwhile', async () => {
    const { revision } = await storeElsewhere('arrived-sliced');
    const database = new WeftDatabase(`arrived-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.origin, token: server.token });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let pauses = 0;
    let opened = false;
    const caching = cacheArrivedCanvas(
      { api, database, now: () => 1 },
      'arrived-sliced',
      () => opened,
      () => ((pauses += 1), pauses === 1 ? Promise.resolve() : gate),
    );
    while (pauses < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    // Between slices: other reads and writes go through, and the half-written canvas is not readable as the canvas.
    await database.settings.put({ key: 'probe', value: 1 });
    expect(await loadCanvasDocument(database, 'arrived-sliced')).toBeNull();
    opened = true;
    release();
    expect(await caching).toBe(false);
    expect(await loadCanvasDocument(database, 'arrived-sliced')).toBeNull();
    expect(await storedRevision(database, 'arrived-sliced')).toBeNull();
    expect(revision).toMatch(/^[0-9a-f]{64}$/);
    database.close();
  });

  it('opened (and cached by its own fill) while its arrival was being read: the arrival touches no row', async () => {
    const { document, revision } = await storeElsewhere('arrived-opened');
    const database = new WeftDatabase(`arrived-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.origin, token: server.token });
    // The open's own fill has cached it whole.
    await fillCanvasRows(database, recordsFromDocument(document), { now: 1, revision, pause: () => Promise.resolve() });
    let asked = 0;
    // Not yet opened when its read came back; opened, and cached by the open's own fill, before its first slice.
    const caching = cacheArrivedCanvas(
      { api, database, now: () => 1 },
      'arrived-opened',
      () => (asked += 1) > 1,
      () => Promise.resolve(),
    );
    expect(await caching).toBe(false);
    // A reload reads the whole canvas: the abandoned arrival cleared none of the rows the open's fill wrote.
    expect((await loadCanvasDocument(database, 'arrived-opened'))?.nodes).toHaveLength(4500);
    expect(await storedRevision(database, 'arrived-opened')).toBe(revision);
    database.close();
  });
});
