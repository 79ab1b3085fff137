import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFromGraph, type Graph } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

/** Other tabs and tools change or delete a canvas (remote-sync-actions.ts): the open page follows, losing nothing. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const question = (graph: Graph, id: string) => graph.nodes.get(id) as QuestionNode;
let databaseCounter = 0;
const freshName = () => `remote-sync-test-${databaseCounter++}-${Math.random()}`;

async function emptyCanvasApp(): Promise<TestApp> {
  const app = await new TestApp(server, freshName()).start();
  await app.state.createCanvas('Test canvas');
  return app;
}

describe('a canvas changed elsewhere (canvas-changed on /api/stream)', () => {
  it('refreshes the open canvas, ignores its own saves, and never clobbers unsaved local edits', async () => {
    // Saves only on flush(), so "an edit not yet saved" is not a race with the debounce.
    const app = await new TestApp(server, freshName(), { durableDelayMs: 60_000 }).start();
    await app.state.createCanvas('Test canvas');
    const id = app.state.activeCanvasId!;
    const asked = app.addQuestion('What is light?');
    await app.state.flush();
    // This page's own save echoes back unchanged.
    expect(await app.state.canvasChangedElsewhere(id)).toBe(false);

    // Another tab or tool renames a node and saves the durable record.
    const remote = documentFromGraph(app.graph);
    // Another writer names the revision it read, as every writer must.
    const put = async (document: typeof remote) => {
      const current = await server.api(`/api/canvases/${id}`);
      const etag = current.status === 200 ? current.headers.get('etag') : null;
      return server.api(`/api/canvases/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
        body: JSON.stringify(document),
      });
    };
    await put({
      ...remote,
      nodes: remote.nodes.map((node) =>
        node.id === asked ? { ...node, question: 'What is light, elsewhere?' } : node,
      ),
    });
    expect(await app.state.canvasChangedElsewhere(id)).toBe(true);
    expect(question(app.graph, asked).question).toBe('What is light, elsewhere?');
    const reloaded = await new TestApp(server, app.database.name).start();
    expect(question(reloaded.graph, asked).question).toBe('What is light, elsewhere?');
    await reloaded.close();

    // An edit not yet saved here wins over a remote change arriving meanwhile…
    app.edit(asked, 'My unsaved wording?');
    const elsewhere = (await (await server.api(`/api/canvases/${id}`)).json()) as typeof remote;
    const remoteNote = { ...remote.nodes[0]!, id: 'remote-note', kind: 'note' as const, text: 'Added elsewhere' };
    const {
      question: _question,
      versions: _versions,
      currentVersionId: _current,
      autoRerun: _auto,
      model: _model,
      attachments: _attachments,
      ...noteBase
    } = remoteNote as Record<string, unknown>;
    const remoteSave = await put({
      ...elsewhere,
      nodes: [
        ...elsewhere.nodes.map((node) => (node.id === asked ? { ...node, question: 'Remote wording?' } : node)),
        noteBase as (typeof remote.nodes)[number],
      ],
    });
    expect(remoteSave.status, await remoteSave.clone().text()).toBe(200);
    expect(await app.state.canvasChangedElsewhere(id)).toBe(false);
    expect(question(app.graph, asked).question).toBe('My unsaved wording?');
    // …and its save, refused as stale (409), is rebased onto the newer record: both changes are kept.
    await app.state.flush();
    expect(question(app.graph, asked).question).toBe('My unsaved wording?');
    expect(app.graph.nodes.get('remote-note')).toMatchObject({ kind: 'note', text: 'Added elsewhere' });
    const merged = (await (await server.api(`/api/canvases/${id}`)).json()) as typeof remote;
    expect(merged.nodes.map((node) => node.id)).toContain('remote-note');
    expect(merged.nodes.find((node) => node.id === asked)).toMatchObject({ question: 'My unsaved wording?' });

    // A late canvas-changed for a canvas deleted here does not bring it back.
    const last = documentFromGraph(app.graph);
    await app.state.createCanvas('Next');
    await app.state.deleteCanvas(id);
    await put(last); // as if the server still held the record when the event was read
    expect(await app.state.canvasChangedElsewhere(id)).toBe(false);
    expect(app.state.canvases.map((canvas) => canvas.id)).not.toContain(id);
    await app.close();
  });
});

describe('a canvas deleted elsewhere (canvas-deleted on /api/stream)', () => {
  it('drops the open canvas with its unsaved edits, switches away, says so, and never re-creates it', async () => {
    const app = await emptyCanvasApp();
    const kept = app.state.activeCanvasId!;
    const id = await app.state.createCanvas('Doomed');
    app.addQuestion('Saved before the delete?');
    await app.state.flush();
    // Another tab deletes it while this tab holds an edit not yet saved.
    expect((await server.api(`/api/canvases/${id}`, { method: 'DELETE' })).ok).toBe(true);
    app.addQuestion('Unsaved when it went?');
    expect(app.store.runtime.writer.hasPending()).toBe(true);

    expect(await app.state.canvasDeletedElsewhere(id)).toBe(true);
    expect(app.state.activeCanvasId).not.toBe(id);
    expect(app.state.canvases.map((canvas) => canvas.id)).toContain(kept);
    expect(app.graph.canvas.id).toBe(app.state.activeCanvasId);
    expect(app.state.canvases.map((canvas) => canvas.id)).not.toContain(id);
    expect(app.lastToast()).toMatchObject({ code: 'canvas-deleted' });
    expect(app.lastToast()?.message).toContain('“Doomed” was deleted elsewhere');
    expect(await app.database.canvases.get(id)).toBeUndefined();
    expect(await app.database.packs.where('canvasId').equals(id).count()).toBe(0);

    // The edit's debounced save never goes out, and later saves are of the canvas now open.
    await new Promise((resolve) => setTimeout(resolve, 60));
    app.addQuestion('Next edit here?');
    await app.state.flush();
    expect((await server.api(`/api/canvases/${id}`)).status).toBe(404);
    expect(await app.state.canvasDeletedElsewhere(id)).toBe(false);
    await app.close();
  });

  it('with no canvas left, starts an empty one', async () => {
    const isolated = await startTestServer();
    try {
      const app = await new TestApp(isolated, freshName()).start();
      const only = app.state.activeCanvasId!;
      expect((await isolated.api(`/api/canvases/${only}`, { method: 'DELETE' })).ok).toBe(true);
      expect(await app.state.canvasDeletedElsewhere(only)).toBe(true);
      expect(app.state.activeCanvasId).not.toBe(only);
      expect(app.state.canvases).toHaveLength(1);
      expect(app.graph.nodes.size).toBe(0);
      await app.close();
      expect((await isolated.api(`/api/canvases/${only}`)).status).toBe(404);
    } finally {
      await isolated.dispose();
    }
  });
});
