import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_DEMO_NOTE, noteAuthor, type NoteNode } from '../../../protocol/index.ts';
import { acceptProfileFactsAutomatically } from '../../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // About the block and the judge's timing, not the review gate: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
});
afterAll(async () => {
  await server?.dispose();
});

const until = async (check: () => boolean, what: string) => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

async function storedNote(canvasId: string, noteId: string): Promise<NoteNode> {
  const document = (await (await server.api(`/api/canvases/${canvasId}`)).json()) as { nodes: NoteNode[] };
  return document.nodes.find((node) => node.id === noteId)!;
}

describe('the memory judge reads the saved canvas', () => {
  it('saves the canvas before asking, so an admission does not wait on the save debounce', async () => {
    // A debounce far longer than the test: only the judge's own flush can put the version on the server.
    const app = await new TestApp(server, `memory-save-${Math.random()}`, {
      memory: true,
      durableDelayMs: 600_000,
    }).start();
    await app.state.createCanvas('Debounced canvas');
    const current = () =>
      (app.memory!.view.getState().loaded?.profile.documents.preferences ?? [])
        .filter((line) => line.ended === null)
        .map((line) => line.text);
    expect(await app.state.ask(app.addQuestion('I prefer answers with code first. What is a monad?'))).toBe(true);
    await until(() => current().length === 1 || app.lastToast()?.code === 'memory-judge-failed', 'the judgement');
    expect(app.lastToast()?.code).toBe('memory-admitted');
    expect(current()).toEqual(['I prefer answers with code first.']);
  });
});

describe('note authorship in the store', () => {
  it('a note the person adds is theirs; the demo note is Weft’s until the person edits it, and both persist', async () => {
    const app = await new TestApp(server, `note-author-${Math.random()}`).start();
    await app.state.createCanvas('Notes canvas');
    const canvasId = app.graph.canvas.id;
    expect(app.state.apply({ type: 'add-node', node: { kind: 'note', text: 'I like terse answers.' } })).toBe(true);
    expect(app.state.apply({ type: 'add-node', node: { kind: 'note', text: LEGACY_DEMO_NOTE, author: 'app' } })).toBe(
      true,
    );
    const [mine, weft] = [...app.graph.nodes.values()].filter((node) => node.kind === 'note');
    await app.state.flush();
    expect((await storedNote(canvasId, mine!.id)).author).toBe('person');
    expect(noteAuthor(await storedNote(canvasId, weft!.id))).toBe('app');

    // Editing Weft's note makes it the person's words (they chose every word that is left).
    expect(
      app.state.apply({ type: 'edit-node', nodeId: weft!.id, patch: { text: 'Keep answers to the physics.' } }),
    ).toBe(true);
    await app.state.flush();
    expect((await storedNote(canvasId, weft!.id)).author).toBe('person');
    await app.close();
  });
});
