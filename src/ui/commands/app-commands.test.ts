import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from '../store/test-app.ts';
import { runCommand } from './run-command.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

async function emptyCanvasApp(): Promise<TestApp> {
  const app = await new TestApp(server, `app-commands-test-${Math.random()}`).start();
  await app.state.createCanvas('Test canvas');
  return app;
}

describe('switching canvases', () => {
  it('a new node asked for while another canvas is being created waits: it lands on neither canvas', async () => {
    const app = await emptyCanvasApp();
    const left = app.state.activeCanvasId!;
    app.addQuestion('Already here');
    const creating = app.state.createCanvas('Second');
    expect(app.state.opening).toBe(true);
    expect(await runCommand(app.store, 'new-question')).toBe(false);
    const created = await creating;
    expect(app.state.opening).toBe(false);
    expect(app.state.activeCanvasId).toBe(created);
    expect(app.graph.nodes.size).toBe(0);
    expect(await runCommand(app.store, 'new-question')).toBe(true);
    expect(app.graph.nodes.size).toBe(1);
    await app.state.openCanvas(left);
    expect([...app.graph.nodes.values()].map((node) => node.kind === 'question' && node.question)).toEqual([
      'Already here',
    ]);
    await app.close();
  });
});
