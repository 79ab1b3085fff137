import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFromGraph, verifyChain } from '../../core/index.ts';
import type { CanvasDocument, NoteNode } from '../../../protocol/canvas-document.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { loadCanvasDocument } from '../db/canvas-persistence.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

let counter = 0;
const freshName = () => `two-writers-${counter++}-${Math.random()}`;

async function durable(id: string): Promise<CanvasDocument> {
  return (await (await server.api(`/api/canvases/${id}`)).json()) as CanvasDocument;
}

async function verdict(id: string): Promise<unknown> {
  return ((await (await server.api(`/api/canvases/${id}/verify`)).json()) as { verdict: unknown }).verdict;
}

/** Two pages (own IndexedDB each) on one canvas; saves happen only on flush(), so the test sets the interleaving. */
async function twoPages(): Promise<{ one: TestApp; two: TestApp; id: string }> {
  const one = await new TestApp(server, freshName(), { durableDelayMs: 60_000 }).start();
  const id = await one.state.createCanvas(`Shared ${counter}`);
  const two = await new TestApp(server, freshName(), { durableDelayMs: 60_000 }).start();
  await two.state.openCanvas(id);
  return { one, two, id };
}

const addNote = (app: TestApp, text: string): string => {
  const before = new Set(app.graph.nodes.keys());
  expect(app.state.apply({ type: 'add-node', node: { kind: 'note', text } })).toBe(true);
  return [...app.graph.nodes.keys()].find((key) => !before.has(key))!;
};

describe('two writers on one canvas', () => {
  it('concurrent saves from two pages keep both edits and one intact chain; a reload reads it intact', async () => {
    const { one, two, id } = await twoPages();
    const first = addNote(one, 'from page one');
    const second = addNote(two, 'from page two');
    // Both based on the same revision, sent at once: one lands, the other is refused (409) and rebased.
    await Promise.all([one.state.flush(), two.state.flush()]);
    const stored = await durable(id);
    expect(stored.nodes.map((node) => node.id)).toEqual(expect.arrayContaining([first, second]));
    expect(await verdict(id)).toMatchObject({ status: 'intact', anchored: true });
    const localEvents = [...one.graph.events, ...two.graph.events].map((event) => event.id);
    expect(stored.events.map((event) => event.id)).toEqual(expect.arrayContaining(localEvents));

    // The page whose save landed first adopts the merged record; no local event rows stay behind.
    const laggard = one.graph.nodes.has(second) ? two : one;
    await laggard.state.canvasChangedElsewhere(id);
    for (const app of [one, two]) {
      expect(documentFromGraph(app.graph)).toEqual(stored);
      const reloaded = await loadCanvasDocument(app.database, id);
      expect(verifyChain(reloaded!.events)).toBeNull();
      expect(reloaded!.events).toEqual(stored.events);
    }
    await one.close();
    await two.close();
  });

  it('tells its own save from another page’s by revision, not by file time', async () => {
    const { one, two, id } = await twoPages();
    addNote(one, 'saved here');
    await one.state.flush();
    const own = one.store.runtime.revisions.get(id)!;
    expect(await one.state.canvasChangedElsewhere(id, own)).toBe(false);
    // Another page saves within the same millisecond-rounded file time: still seen as someone else's.
    await two.state.canvasChangedElsewhere(id);
    addNote(two, 'saved there');
    await two.state.flush();
    const theirs = two.store.runtime.revisions.get(id)!;
    expect(theirs).not.toBe(own);
    expect(await one.state.canvasChangedElsewhere(id, theirs)).toBe(true);
    expect([...one.graph.nodes.values()].map((node) => (node as NoteNode).text)).toContain('saved there');
    await one.close();
    await two.close();
  });

  it('a stale page’s save never deletes the edit saved before it', async () => {
    const { one, two, id } = await twoPages();
    const shared = addNote(one, 'original');
    await one.state.flush();
    await two.state.canvasChangedElsewhere(id);
    one.state.apply({ type: 'edit-node', nodeId: shared, patch: { text: 'edited on page one' } });
    await one.state.flush();
    // Page two never saw that edit; it moves the node and saves from its old copy.
    two.state.apply({ type: 'move-node', nodeId: shared, position: { x: 300, y: 40 } });
    await two.state.flush();
    const stored = (await durable(id)).nodes.find((node) => node.id === shared) as NoteNode;
    expect(stored).toMatchObject({ text: 'edited on page one', position: { x: 300, y: 40 } });
    expect(await verdict(id)).toMatchObject({ status: 'intact' });
    await one.close();
    await two.close();
  });

  it('an undo refused as stale (409) is not put over the edit another page saved since: it is listed as not applied', async () => {
    const { one, two, id } = await twoPages();
    const shared = addNote(one, 'original');
    one.state.apply({ type: 'edit-node', nodeId: shared, patch: { text: 'edited on page one' } });
    await one.state.flush();
    await two.state.canvasChangedElsewhere(id);
    two.state.apply({ type: 'edit-node', nodeId: shared, patch: { text: 'edited on page two' } });
    await two.state.flush();
    // Page one undoes its edit from its older copy; its save is refused and its steps replayed onto page two's.
    one.state.undo();
    expect((one.graph.nodes.get(shared) as NoteNode).text).toBe('original');
    await one.state.flush();
    const stored = (await durable(id)).nodes.find((node) => node.id === shared) as NoteNode;
    expect(stored.text).toBe('edited on page two');
    expect((one.graph.nodes.get(shared) as NoteNode).text).toBe('edited on page two');
    expect(one.state.unapplied?.notApplied.map((entry) => entry.what)).toEqual(['An undo or redo']);
    expect(await verdict(id)).toMatchObject({ status: 'intact' });
    await one.close();
    await two.close();
  });
});

type Action =
  | { type: 'add'; page: 0 | 1 }
  | { type: 'edit'; page: 0 | 1; pick: number }
  | { type: 'move'; page: 0 | 1; pick: number; x: number }
  | { type: 'flush'; page: 0 | 1 }
  | { type: 'flush-both' }
  | { type: 'refresh'; page: 0 | 1 };

const page = fc.constantFrom<0 | 1>(0, 1);
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant('add' as const), page }),
  fc.record({ type: fc.constant('edit' as const), page, pick: fc.nat(20) }),
  fc.record({ type: fc.constant('move' as const), page, pick: fc.nat(20), x: fc.integer({ min: -500, max: 500 }) }),
  fc.record({ type: fc.constant('flush' as const), page }),
  fc.record({ type: fc.constant('flush-both' as const) }),
  fc.record({ type: fc.constant('refresh' as const), page }),
);

describe('two writers, random typed changes (property)', () => {
  it('no change is lost and the chain verifies, whatever the interleaving of edits and saves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 18 }), async (actions) => {
        const { one, two, id } = await twoPages();
        const pages = [one, two] as const;
        /** What each page last wrote to each of its own notes: text and x position (pages edit only their own). */
        const expected = new Map<string, { text: string; x: number }>();
        const owned: [string[], string[]] = [[], []];
        let serial = 0;
        for (const step of actions) {
          if (step.type === 'add') {
            const text = `note ${serial++}`;
            const nodeId = addNote(pages[step.page], text);
            owned[step.page].push(nodeId);
            expected.set(nodeId, { text, x: pages[step.page].graph.nodes.get(nodeId)!.position.x });
          } else if (step.type === 'edit' || step.type === 'move') {
            const mine = owned[step.page];
            if (mine.length === 0) continue;
            const nodeId = mine[step.pick % mine.length]!;
            const want = expected.get(nodeId)!;
            if (step.type === 'edit') {
              const text = `edit ${serial++}`;
              pages[step.page].state.apply({ type: 'edit-node', nodeId, patch: { text } });
              expected.set(nodeId, { ...want, text });
            } else {
              pages[step.page].state.apply({ type: 'move-node', nodeId, position: { x: step.x, y: 0 } });
              expected.set(nodeId, { ...want, x: step.x });
            }
          } else if (step.type === 'flush') await pages[step.page].state.flush();
          else if (step.type === 'flush-both') await Promise.all([one.state.flush(), two.state.flush()]);
          else await pages[step.page].state.canvasChangedElsewhere(id);
        }
        await Promise.all([one.state.flush(), two.state.flush()]);
        const stored = await durable(id);
        const byId = new Map(stored.nodes.map((node) => [node.id, node] as const));
        for (const [nodeId, want] of expected) {
          const node = byId.get(nodeId) as NoteNode | undefined;
          expect(node, `note ${nodeId} lost`).toBeDefined();
          expect({ text: node!.text, x: node!.position.x }).toEqual(want);
        }
        const storedIds = new Set(stored.events.map((event) => event.id));
        for (const app of pages) for (const event of app.graph.events) expect(storedIds.has(event.id)).toBe(true);
        expect(verifyChain(stored.events)).toBeNull();
        expect(await verdict(id)).toMatchObject({ status: 'intact', anchored: true });
        await one.close();
        await two.close();
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
