import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyChange, documentFromGraph, graphFromDocument } from '../../core/index.ts';
import { chainCanvas } from '../../../tests/support/chain-canvas.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { DEFER_STALENESS_ABOVE } from './deferred-staleness.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const CHAINS = 8;
const DEPTH = 40;

/** A canvas above the deferral size whose first chain's root question was edited after it was answered. */
async function storeEditedCanvas(id: string): Promise<string[]> {
  const document = chainCanvas(id, CHAINS, DEPTH);
  expect(document.nodes.length).toBeGreaterThan(DEFER_STALENESS_ABOVE);
  const edited = applyChange(
    graphFromDocument(document),
    { type: 'edit-node', nodeId: `${id}-0-0`, patch: { question: 'A reworded root?' } },
    { now: 1_900_000_000_000, newId: () => 'edit-event' },
  );
  if (!edited.ok) throw new Error(edited.error.message);
  const response = await server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(documentFromGraph(edited.value.graph)),
  });
  expect(response.status).toBe(200);
  // The edited root and every answer below it in its chain.
  return Array.from({ length: DEPTH }, (_, row) => `${id}-0-${row}`);
}

describe('a large canvas paints before its staleness is worked out', () => {
  it('opens with nothing marked, then shows the stale answers once the first frame is out', async () => {
    const stale = await storeEditedCanvas('deferred-open');
    const app = await new TestApp(server, `deferred-${Math.random()}`).start();
    // What the canvas is first drawn with: the state in which its graph arrives.
    const before = app.state.graph;
    let firstShown: number | null = null;
    const unsubscribe = app.store.subscribe((state) => {
      if (firstShown === null && state.graph !== before) firstShown = state.shown.size;
    });
    await app.state.openCanvas('deferred-open');
    unsubscribe();
    expect(app.graph.nodes.size).toBe(CHAINS * DEPTH);
    expect(firstShown).toBe(0);
    await vi.waitFor(() => expect(app.state.shown.size).toBeGreaterThan(0), { timeout: 10_000 });
    expect([...app.state.shown].sort()).toEqual([...stale].sort());
    expect([...app.state.questionEdited]).toEqual([stale[0]]);
    expect(app.state.fingerprints.size).toBeGreaterThan(0);
    await app.close();
  });

  it('an edit made before then is checked against the opened canvas’s staleness, as if it had been worked out', async () => {
    const stale = await storeEditedCanvas('deferred-edit');
    const app = await new TestApp(server, `deferred-${Math.random()}`).start();
    // Reword a question in the second chain as soon as the canvas is there, before its staleness is worked out.
    const before = app.state.graph;
    let shownAtEdit: number | null = null;
    const unsubscribe = app.store.subscribe((state) => {
      if (shownAtEdit !== null || state.graph === before) return;
      shownAtEdit = state.shown.size;
      queueMicrotask(() => expect(app.edit('deferred-edit-1-5', 'A reworded middle?')).toBe(true));
    });
    await app.state.openCanvas('deferred-edit');
    unsubscribe();
    expect(shownAtEdit).toBe(0);
    // That answer and the ones below it are stale too, beside those the opened canvas already had.
    const below = Array.from({ length: DEPTH - 6 }, (_, row) => `deferred-edit-1-${row + 6}`);
    expect([...app.state.shown].sort()).toEqual([...stale, 'deferred-edit-1-5', ...below].sort());
    expect([...app.state.questionEdited].sort()).toEqual([stale[0], 'deferred-edit-1-5'].sort());
    // The undo history holds the edit, and no late settling clears it or changes the marks.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(app.state.past).toHaveLength(1);
    expect([...app.state.shown].sort()).toEqual([...stale, 'deferred-edit-1-5', ...below].sort());
    await app.close();
  });
});
