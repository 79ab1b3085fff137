import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { DEFAULT_MEMORY_READING } from '../../../protocol/memory-reading.ts';
import type { MemoryInboxResponse } from '../../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { plannedRequest } from './planned-request.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  // Settings as a new person has them: facts wait in the Inbox.
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

async function inbox(): Promise<MemoryInboxResponse> {
  return (await (await server.api('/api/memory/inbox')).json()) as MemoryInboxResponse;
}

/** Issue 29.1 at dispatch: a pending fact rides no request; once accepted it rides the next, hashes agreeing. */
describe('the Inbox at dispatch', () => {
  it('keeps a proposed fact out of the next request until it is accepted, then sends it', async () => {
    const app = await new TestApp(server, `memory-inbox-${Math.random()}`, { memory: true }).start();
    const memory = app.memory!;
    await app.state.createCanvas('Inbox canvas');
    const canvasId = app.graph.canvas.id;

    const first = app.addQuestion('I prefer answers in British English. What is a lift?');
    expect(await app.state.ask(first)).toBe(true);
    await until(async () => (await inbox()).proposals.length === 1, 'the proposal');
    await until(() => app.graph.events.some((event) => event.op === 'memory-proposed'), 'the proposal event');
    expect(app.lastToast()).toMatchObject({ code: 'memory-proposed' });
    await memory.refresh();
    expect(memory.view.getState().loaded!.profile.documents.preferences).toEqual([]);

    // Pending: the next ask carries no [Memory] block and nowhere says it.
    const second = app.addQuestion('And what is a flat?');
    expect(memory.blockFor(canvasId, 'chat', DEFAULT_MEMORY_READING)).toBeNull();
    const pending = plannedRequest(
      app.state,
      second,
      'chat',
      undefined,
      memory.blockFor(canvasId, 'chat', DEFAULT_MEMORY_READING),
    )!;
    expect(JSON.stringify(pending.built.request)).not.toContain('British English.\n');
    expect(pending.built.request.messages.some((message) => JSON.stringify(message).includes('[Memory]'))).toBe(false);

    // Accepted: the next request carries it; preview hash = request hash = commit hash.
    const [proposal] = (await inbox()).proposals;
    const accepted = await server.api(`/api/memory/inbox/${proposal!.id}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(accepted.status).toBe(200);
    await memory.refresh();
    const block = memory.blockFor(canvasId, 'chat', DEFAULT_MEMORY_READING);
    expect(block).toBe('[Memory]\nPreferences:\n- I prefer answers in British English.');
    const preview = plannedRequest(app.state, second, 'chat', undefined, block)!;
    expect(await app.state.ask(second)).toBe(true);
    const version = (app.graph.nodes.get(second) as QuestionNode).versions.at(-1)!;
    expect(version.memorySent).toBe(true);
    expect(version.requestHash).toBe(preview.built.requestHash);
    const commit = app.graph.events.filter((event) => event.op === 'commit').at(-1)!;
    expect(commit.meta.requestHash).toBe(preview.built.requestHash);
    await app.close();
  });
});
