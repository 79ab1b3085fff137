import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // A hosted provider with no key: the server cannot hand a request to it.
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ providers: [{ id: 'keyless', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1' }] }),
  });
  expect(response.status).toBe(200);
});
afterAll(async () => {
  await server?.dispose();
});

let counter = 0;

/** C9: a commit event means "this request, with this hash, was handed to this model". */
describe('ask writes a commit only for a request a model received', () => {
  it.each([
    ['an unknown model', 'nobody/model', 'model-missing'],
    ['a provider without a key', 'keyless/claude-haiku-4-5', 'bad-key'],
  ])('%s: no commit, no version, a coded message', async (_case, model, code) => {
    const app = await new TestApp(server, `ask-commit-${counter++}-${Math.random()}`).start();
    await app.state.createCanvas('Commit canvas');
    const node = app.addQuestion('What is two plus two?');
    expect(app.state.apply({ type: 'edit-node', nodeId: node, patch: { model } })).toBe(true);
    const eventsBefore = app.graph.events.length;

    expect(await app.state.ask(node)).toBe(false);
    expect(app.lastToast()?.code).toBe(code);
    expect(app.graph.events.filter((event) => event.op === 'commit')).toEqual([]);
    expect(app.graph.events.length).toBe(eventsBefore);
    expect((app.graph.nodes.get(node) as QuestionNode).versions).toEqual([]);

    // The receipt model is handed the request: now a commit lands, with the version's hash.
    app.state.apply({ type: 'edit-node', nodeId: node, patch: { model: 'offline/receipt' } });
    expect(await app.state.ask(node)).toBe(true);
    const commits = app.graph.events.filter((event) => event.op === 'commit');
    expect(commits).toHaveLength(1);
    expect(commits[0]!.meta.requestHash).toBe((app.graph.nodes.get(node) as QuestionNode).versions[0]!.requestHash);
    await app.close();
  });
});
