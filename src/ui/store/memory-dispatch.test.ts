import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { DEFAULT_MEMORY_READING } from '../../../protocol/memory-reading.ts';
import { acceptProfileFactsAutomatically } from '../../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { plannedRequest } from './planned-request.ts';
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

let counter = 0;
const until = async (check: () => boolean, what: string) => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

function versionOf(app: TestApp, nodeId: string) {
  const node = app.graph.nodes.get(nodeId) as QuestionNode;
  return node.versions.at(-1)!;
}

/** C9 + C14: the [Memory] block is part of what is previewed, sent, hashed and committed. */
describe('the [Memory] block at dispatch', () => {
  it('rides an ordinary ask after the compiled context; preview hash = request hash = commit hash', async () => {
    const app = await new TestApp(server, `memory-dispatch-${counter++}-${Math.random()}`, { memory: true }).start();
    const memory = app.memory!;
    await app.state.createCanvas('Memory canvas');
    const canvasId = app.graph.canvas.id;

    // First ask: nothing remembered yet, so no block; the judge (rule path) admits the person's preference.
    const first = app.addQuestion('I prefer answers in British English. What is a lift?');
    expect(await app.state.ask(first)).toBe(true);
    expect(versionOf(app, first).memorySent).toBe(false);
    await until(() => memory.view.getState().loaded?.profile.documents.preferences.length === 1, 'the admission');
    await until(() => app.graph.events.some((event) => event.op === 'memory-written'), 'memory events in the log');
    const judged = app.graph.events.find((event) => event.op === 'memory-judged')!;
    expect(judged).toMatchObject({ objectId: first, meta: { verdict: 'admitted', path: 'rule', canvasId } });
    expect(judged.meta.commitHash).toBe(versionOf(app, first).requestHash);
    // Metadata only: the fact's words never enter the log.
    expect(JSON.stringify(app.graph.events)).not.toContain('British');
    expect(app.lastToast()).toMatchObject({ code: 'memory-admitted', action: { label: 'Undo' } });
    const line = memory.view.getState().loaded!.profile.documents.preferences[0]!;
    expect(line.origin).toMatchObject({ canvasId, nodeId: first, versionId: versionOf(app, first).id });

    // Second ask: the block rides it, just before the question, and every hash agrees.
    const second = app.addQuestion('And what is a flat?');
    const block = memory.blockFor(canvasId, 'chat', DEFAULT_MEMORY_READING);
    expect(block).toBe('[Memory]\nPreferences:\n- I prefer answers in British English.');
    const preview = plannedRequest(app.state, second, 'chat', undefined, block)!;
    const messages = preview.built.request.messages;
    expect(messages.at(-2)).toEqual({ role: 'user', content: [{ type: 'text', text: block }] });
    expect(preview.built.messageSources.at(-2)).toEqual({ kind: 'late', source: 'profile' });
    const withoutBlock = plannedRequest(app.state, second, 'chat')!;
    expect(withoutBlock.built.requestHash).not.toBe(preview.built.requestHash);

    expect(await app.state.ask(second)).toBe(true);
    const version = versionOf(app, second);
    expect(version.memorySent).toBe(true);
    expect(version.requestHash).toBe(preview.built.requestHash);
    const commit = app.graph.events.filter((event) => event.op === 'commit').at(-1)!;
    expect(commit.meta.requestHash).toBe(preview.built.requestHash);
    // The offline receipt model reports the hash the server computed over what it received.
    expect(version.text).toContain(preview.built.requestHash);
    // An agent lane never carries it.
    expect(memory.blockFor(canvasId, 'agent', DEFAULT_MEMORY_READING)).toBeNull();

    // The per-canvas switch turns it off: the next version records that it was not sent.
    await memory.api.setCanvas(canvasId, false);
    await memory.refresh();
    expect(memory.blockFor(canvasId, 'chat', DEFAULT_MEMORY_READING)).toBeNull();
    const third = app.addQuestion('What is a biscuit?');
    expect(await app.state.ask(third)).toBe(true);
    expect(versionOf(app, third).memorySent).toBe(false);
    expect(versionOf(app, third).requestHash).toBe(withoutBlockHash(app, third));
    await memory.api.setCanvas(canvasId, true);
    await app.close();
  });

  it('runs the judge after an ordinary ask only: an auto-rerun or a Replay step is not judged', async () => {
    const app = await new TestApp(server, `memory-lanes-${counter++}-${Math.random()}`, { memory: true }).start();
    await app.state.createCanvas('Lanes canvas');
    const node = app.addQuestion('I like short answers with examples.');
    const before = (await app.memory!.api.state()).activity.length;
    expect(await app.state.ask(node, { lane: 'replay' })).toBe(true);
    expect(await app.state.ask(node, { lane: 'auto-rerun' })).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await app.memory!.api.state()).activity.length).toBe(before);
    expect(app.graph.events.some((event) => event.op.startsWith('memory-'))).toBe(false);
    await app.close();
  });
});

function withoutBlockHash(app: TestApp, nodeId: string): string {
  return plannedRequest(app.state, nodeId, 'chat')!.built.requestHash;
}
