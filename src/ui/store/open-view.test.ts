import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

describe('the open view (WeftState.view is its one owner)', () => {
  it('opens one page over the workspace at a time, and closing it returns to the workspace view under it', async () => {
    const app = await new TestApp(server, `open-view-${Math.random()}`).start();
    expect(app.state).toMatchObject({ view: 'canvas', workspaceView: 'canvas' });
    app.state.setView('events');
    app.state.setView('memory');
    expect(app.state).toMatchObject({ view: 'memory', workspaceView: 'events' });
    // The Atlas replaces the Memory page: closing Memory afterwards leaves the Atlas open.
    app.state.setView('atlas');
    app.state.closeView('memory');
    expect(app.state).toMatchObject({ view: 'atlas', workspaceView: 'events' });
    app.state.closeView('atlas');
    expect(app.state).toMatchObject({ view: 'events', workspaceView: 'events' });
    // A workspace tab clicked while a page covers it closes the page.
    app.state.setView('why');
    app.state.setView('settings');
    expect(app.state).toMatchObject({ view: 'settings', workspaceView: 'settings' });
    await app.close();
  });
});
